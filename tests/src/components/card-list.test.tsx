import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseOption, optionLabels } from '#tests/src/support/select.ts';

/** A viewport of this width for matchMedia's min-width / max-width queries. */
function viewport(width: number) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: /max-width:\s*([\d.]+)px/.test(query)
          ? width <= Number(/max-width:\s*([\d.]+)px/.exec(query)![1])
          : /min-width:\s*([\d.]+)px/.test(query)
            ? width >= Number(/min-width:\s*([\d.]+)px/.exec(query)![1])
            : false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

interface Row {
  id: number;
  name: string;
  status: string;
  group: string;
}
const rows: Row[] = [
  { id: 1, name: 'Printer jam', status: 'Open', group: 'Hardware' },
  { id: 2, name: 'Password reset', status: 'Resolved', group: 'Accounts' },
];
const columns: Column<Row>[] = [
  { key: 'name', header: 'Title', sortKey: 'name', cell: (r) => r.name },
  { key: 'status', header: 'Status', sortKey: 'status', cell: (r) => r.status },
  { key: 'group', header: 'Group', cell: (r) => r.group, hideOnSmall: true },
  { key: 'actions', header: 'Actions', cell: (r) => <button type="button">Claim #{r.id}</button> },
];

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces('ui');
});
afterEach(() => {
  vi.restoreAllMocks();
});

const draw = (onSort = vi.fn()) =>
  render(
    <I18nextProvider i18n={i18n}>
      <DataTable caption="Tickets" columns={columns} rows={rows} rowKey={(r) => r.id} sort={{ key: 'name', direction: 'asc' }} onSort={onSort} testId="list" />
    </I18nextProvider>,
  );

describe('lists on a phone (issue 23)', () => {
  it('should show cards at 390 px, each with its title, every labelled field and its actions', () => {
    viewport(390);
    draw();
    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'Tickets' });
    const cards = within(list).getAllByTestId('row-card');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]);
    expect(first.getByText('Printer jam')).toBeInTheDocument();
    expect(first.getByText('Status').nextSibling).toHaveTextContent('Open');
    expect(first.getByText('Group').nextSibling).toHaveTextContent('Hardware');
    expect(first.getByRole('button', { name: 'Claim #1' })).toBeInTheDocument();
    // The actions column is the card's foot, not a labelled line.
    expect(first.queryByText('Actions')).toBeNull();
  });

  it('should keep the sort on a phone with an Ark Select, every sortable column both ways, in words', async () => {
    viewport(390);
    const onSort = vi.fn();
    draw(onSort);
    const sort = screen.getByTestId('list-sort');
    expect(sort).toHaveAttribute('data-scope', 'select');
    const combobox = within(sort).getByRole('combobox', { name: 'Sort' });
    expect(combobox).toHaveTextContent('Title, ascending');
    expect(optionLabels(sort)).toEqual(['Title, ascending', 'Title, descending', 'Status, ascending', 'Status, descending']);
    await chooseOption(userEvent.setup(), combobox, 'Status, descending');
    expect(onSort).toHaveBeenCalledWith({ key: 'status', direction: 'desc' });
  });

  it('should stay a table from 768 px up', () => {
    viewport(768);
    draw();
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.queryAllByTestId('row-card')).toHaveLength(0);
  });
});
