import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ListSkeleton, PageSkeleton } from '#src/components/ui/skeleton.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { PageLoader } from '#src/app/page-loader.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['ui', 'common']);
});

const wrap = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

describe('skeletons instead of whole-page spinners (issue 23)', () => {
  it('should draw rows of grey bars as one labelled status, the bars hidden from screen readers', () => {
    wrap(<ListSkeleton columns={3} rows={4} />);
    const status = screen.getByRole('status', { name: 'Loading…' });
    expect(status).toHaveAttribute('aria-busy', 'true');
    expect(status.querySelectorAll('[aria-hidden=true]')).toHaveLength(12);
  });

  it('should show a list skeleton with one bar per column while a paged list has no first page', () => {
    const search = { result: null, error: null, busy: true, sort: null, send: () => {} } as never;
    wrap(
      <PagedTable
        search={search}
        errorText={null}
        empty={null}
        caption="Users"
        columns={[0, 1, 2].map((n) => ({ key: `c${n}`, header: `C${n}`, cell: () => n }))}
        rowKey={() => 1}
      />,
    );
    expect(screen.getByTestId('list-skeleton').querySelectorAll('[aria-hidden=true]')).toHaveLength(15);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('should show a page skeleton while a route’s code loads', () => {
    wrap(<PageLoader />);
    expect(screen.getByTestId('page-skeleton')).toHaveAttribute('role', 'status');
    wrap(<PageSkeleton label="Opening the ticket" />);
    expect(screen.getByRole('status', { name: 'Opening the ticket' })).toBeInTheDocument();
  });
});
