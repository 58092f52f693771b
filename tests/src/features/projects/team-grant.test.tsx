import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import type { UserDetail } from '#src/features/users/api/users-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { testRouter } from '#tests/src/support/test-router.tsx';

const projects = vi.hoisted(() => ({ grants: vi.fn(), grant: vi.fn(), revoke: vi.fn() }));
const exams = vi.hoisted(() => ({ search: vi.fn() }));
const users = vi.hoisted(() => ({ search: vi.fn() }));

vi.mock('#src/features/projects/api/projects-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/projects/api/projects-api.ts')>()),
  projectsApi: projects,
  examsApi: exams,
}));
vi.mock('#src/features/users/api/users-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/users/api/users-api.ts')>()),
  usersApi: users,
}));

const { TeamPanel } = await import('#src/features/projects/components/team-panel.tsx');

const page = <T,>(rows: T[], query: Pick<PagedQuery, 'pageNumber' | 'pageSize'>) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: 1,
  totalCount: rows.length,
  pageSize: query.pageSize,
  hasPreviousPage: false,
  hasNextPage: false,
});
const person = (id: string, firstName: string, lastName: string): UserDetail =>
  ({ id, firstName, lastName, email: `${firstName.toLowerCase()}@example.test` }) as UserDetail;

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['projects', 'users', 'ui', 'errors']);
});
afterEach(() => vi.clearAllMocks());

async function openGrantDialog() {
  projects.grants.mockImplementation(async (query: PagedQuery) => page([], query));
  exams.search.mockImplementation(async (query: PagedQuery) => page([{ examId: 3, name: 'Physics mock' }], query));
  const location = testRouter('/projects/team');
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <location.Router>
        <Suspense fallback={null}>
          <TeamPanel canManage />
        </Suspense>
      </location.Router>
    </I18nextProvider>,
  );
  await user.click(await screen.findByRole('button', { name: 'Grant a permission' }));
  const dialog = await screen.findByRole('dialog', { name: 'Grant a permission' });
  const input = within(dialog).getByRole('combobox', { name: 'User' });
  await waitFor(() => expect(input).toHaveFocus());
  return { user, dialog, input };
}

describe('the team grant dialog (Ark Combobox over the users search)', () => {
  it('should search the server as one types, choose a match with the keyboard and grant it', async () => {
    users.search.mockImplementation(async (query: PagedQuery) =>
      page(query.keyword === 'vik' ? [person('u-1', 'Vikram', 'Rao'), person('u-2', 'Vikas', 'Shah')] : [], query),
    );
    projects.grant.mockResolvedValue({ grantId: 9, firstName: 'Vikas', lastName: 'Shah', permission: 'ItemReviewer' });
    const { user, dialog, input } = await openGrantDialog();
    const grant = within(dialog).getByRole('button', { name: 'Grant' });
    expect(grant).toBeDisabled();

    await user.type(input, 'vik');
    const listbox = await screen.findByRole('listbox');
    await within(listbox).findByRole('option', { name: 'Vikas Shah <vikas@example.test>' });
    // The typing settles before one request goes out, with the whole text.
    expect(users.search).toHaveBeenCalledTimes(1);
    expect(users.search.mock.calls[0]![0]).toMatchObject({ keyword: 'vik', pageSize: 10 });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Vikram Rao <vikram@example.test>', 'Vikas Shah <vikas@example.test>']);

    // One key at a time, each seen to move the highlight: on a loaded CI machine a key pressed
    // while the matches were still rendering was lost (6 Dec).
    const option = (name: string) => within(listbox).getByRole('option', { name });
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(option('Vikram Rao <vikram@example.test>')).toHaveAttribute('data-highlighted'));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(option('Vikas Shah <vikas@example.test>')).toHaveAttribute('data-highlighted'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(input).toHaveValue('Vikas Shah <vikas@example.test>'));
    // Choosing does not search again for the chosen label.
    expect(users.search).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(grant).toBeEnabled());
    await user.click(grant);
    await waitFor(() => expect(projects.grant).toHaveBeenCalledWith({ userId: 'u-2', permission: 'ItemReviewer', examId: null }));
  }, 20_000);

  it('should say when no user matches, and drop the chosen user when the text is typed over', async () => {
    users.search.mockImplementation(async (query: PagedQuery) => page(query.keyword === 'vik' ? [person('u-1', 'Vikram', 'Rao')] : [], query));
    const { user, dialog, input } = await openGrantDialog();
    await user.type(input, 'vik');
    await within(await screen.findByRole('listbox')).findByRole('option', { name: /Vikram Rao/ });
    await user.keyboard('{ArrowDown}{Enter}');
    const grant = within(dialog).getByRole('button', { name: 'Grant' });
    await waitFor(() => expect(grant).toBeEnabled());

    await user.clear(input);
    await user.type(input, 'zz');
    const status = await within(dialog).findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('No user matches.'));
    expect(grant).toBeDisabled();
  }, 20_000);

  it('should show a failed search under the field, not as an empty list', async () => {
    users.search.mockRejectedValue({ status: 403, title: 'You do not have permission to do this.' });
    const { user, dialog, input } = await openGrantDialog();
    await user.type(input, 'vik');
    const alert = await within(dialog).findByRole('alert');
    await waitFor(() => expect(alert.textContent).not.toBe(''));
    expect(within(dialog).queryByText('No user matches.')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Grant' })).toBeDisabled();
  }, 20_000);
});
