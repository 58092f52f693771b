import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

/** A viewport of this width for matchMedia's max-width queries. */
function viewport(width: number) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: /max-width:\s*([\d.]+)px/.test(query) ? width <= Number(/max-width:\s*([\d.]+)px/.exec(query)![1]) : false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['ui']);
});
afterEach(() => vi.restoreAllMocks());

const renderFold = (active: number) =>
  render(
    <I18nextProvider i18n={i18n}>
      <FilterFold active={active}>
        <label>
          Group <input />
        </label>
      </FilterFold>
    </I18nextProvider>,
  );

describe('FilterFold (issue 23)', () => {
  it('should lay the filters out as given from the sm breakpoint up', () => {
    viewport(1024);
    renderFold(1);
    expect(screen.getByRole('textbox', { name: 'Group' })).toBeVisible();
    expect(screen.queryByTestId('filters-toggle')).toBeNull();
  });

  it('should fold them on a phone behind one button that says how many are on, and open with the keyboard', async () => {
    viewport(390);
    renderFold(2);
    const toggle = screen.getByRole('button', { name: 'Filters (2 on)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: 'Group' })).toBeNull();
    const user = userEvent.setup();
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByRole('textbox', { name: 'Group' })).toBeVisible();
    expect(toggle.getAttribute('aria-controls')).toBe(screen.getByTestId('filters-panel').id);
  });
});
