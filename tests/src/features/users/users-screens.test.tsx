import { act, screen, waitFor, within } from '@testing-library/react';
import { type ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { allPermissions, P, type Permission } from '#machines/permissions.ts';
import { roleStore, userPermissionsStore, userStore } from '#src/app/stores/slices.ts';
import { appConfig } from '#src/lib/config.ts';
import type { UploadJob, UserDetail } from '#src/features/users/api/users-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt as renderScreen } from '#tests/src/support/render-at.tsx';
import { chooseMenuItem, closeMenu, openMenu } from '#tests/src/support/menus.ts';
import { chooseOption } from '#tests/src/support/select.ts';

const api = vi.hoisted(() => ({
  search: vi.fn(),
  create: vi.fn(),
  edit: vi.fn(),
  roles: vi.fn(),
  setRoles: vi.fn(),
  toggleStatus: vi.fn(),
  toggleEmail: vi.fn(),
  resendInvitation: vi.fn(),
  setFirstTimeLogin: vi.fn(),
  searchRoles: vi.fn(),
  allRoles: vi.fn(),
  createRole: vi.fn(),
  editRole: vi.fn(),
  retireRole: vi.fn(),
  loginHistory: vi.fn(),
  languages: vi.fn(),
  addLanguage: vi.fn(),
  removeLanguage: vi.fn(),
  directorySearch: vi.fn(),
  directoryLookup: vi.fn(),
  activeRoles: vi.fn(),
  downloadTemplate: vi.fn(),
  uploadUsers: vi.fn(),
  jobs: vi.fn(),
  downloadErrorFile: vi.fn(),
  exportUsers: vi.fn(),
}));

const saved = vi.hoisted(() => vi.fn());
vi.mock('#src/lib/save-file.ts', () => ({ saveFile: saved }));

vi.mock('#src/features/users/api/users-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/users/api/users-api.ts')>()),
  usersApi: api,
}));

const { emailCheckApi } = await import('#src/lib/use-email-check.ts');
const { default: UsersPage } = await import('#src/features/users/users-page.tsx');
const { default: RolesPage } = await import('#src/features/users/roles-page.tsx');
const { default: BulkUploadPage } = await import('#src/features/users/bulk-upload-page.tsx');
const { default: AdminLoginHistoryPage, OwnLoginHistoryPage } = await import('#src/features/users/login-history-page.tsx');
const { default: AccountPage } = await import('#src/features/users/account-page.tsx');
const { userSearchBody } = await import('#src/features/users/api/users-api.ts');

const user = (n: number, overrides: Partial<UserDetail> = {}): UserDetail => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  firstName: `First${n}`,
  lastName: `Last${n}`,
  email: `user${n}@example.test`,
  userName: `user${n}`,
  phoneNumber: null,
  dateOfBirth: null,
  loginType: 'local',
  userType: null,
  resellerId: null,
  instituteId: null,
  isActive: true,
  emailConfirmed: true,
  isFirstTimeLogin: false,
  preferredLanguage: null,
  roles: [{ roleId: 'r-cand', roleName: 'Candidate' }],
  createdOn: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const page = <T,>(rows: T[], query: PagedQuery, total = rows.length) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
  totalCount: total,
  pageSize: query.pageSize,
  hasPreviousPage: query.pageNumber > 1,
  hasNextPage: query.pageNumber * query.pageSize < total,
});

const roles = [
  { id: 'r-admin', name: 'Admin', description: 'Full access', isSystem: true, permissions: [...allPermissions], userCount: 1 },
  { id: 'r-tester', name: 'Tester', description: 'Audits', isSystem: true, permissions: [P.Machines.View], userCount: 0 },
];

const grant = (permissions: readonly Permission[]) => act(() => userPermissionsStore.trigger.update({ permissions: [...permissions] }));

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['users', 'ui', 'errors']);
});
beforeEach(() => {
  grant(allPermissions);
  api.allRoles.mockResolvedValue({ data: roles });
  api.activeRoles.mockResolvedValue([]);
  // The server's address check (spec §7 validateemail): syntax only, lower-cased.
  vi.spyOn(emailCheckApi, 'validate').mockImplementation(async (email: string) => {
    const isValid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
    return { email: email.toLowerCase(), isValid, message: '' };
  });
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

const renderAt = (path: string, node: ReactNode, pattern?: string) => renderScreen(path, pattern ? { [pattern]: node } : node);

describe('the users search request', () => {
  it('should turn the filters into the body of /users/search', () => {
    expect(
      userSearchBody({
        keyword: '  asha ',
        pageNumber: 2,
        pageSize: 25,
        orderBy: ['email asc'],
        filters: { isActive: 'false', emailConfirmed: 'true', roleId: 'r-1' },
      }),
    ).toEqual({ keyword: 'asha', pageNumber: 2, pageSize: 25, orderBy: ['email asc'], isActive: false, emailConfirmed: true, roleId: 'r-1' });
    // "Any" leaves the filter out (a null boolean would be coerced to false by the server's validator).
    expect(userSearchBody({ keyword: '', pageNumber: 1, pageSize: 10, orderBy: null, filters: { isActive: '', roleId: '' } })).toEqual({
      keyword: null,
      pageNumber: 1,
      pageSize: 10,
      orderBy: null,
    });
  });
});

describe('users screen', () => {
  it('should list users, filter by status and role, and sort by a column', async () => {
    api.search.mockImplementation(async (query: PagedQuery) =>
      page(query.filters.isActive === 'false' ? [user(3, { isActive: false })] : [user(1), user(2)], query),
    );
    const { user: u } = renderAt('/users', <UsersPage />);
    const table = await screen.findByTestId('users-table');
    expect(within(table).getByText('user1@example.test')).toBeInTheDocument();
    expect(within(table).getByText('user2@example.test')).toBeInTheDocument();
    expect(api.search).toHaveBeenCalledWith(expect.objectContaining({ pageNumber: 1, orderBy: ['createdOn desc'] }));

    await chooseOption(u, screen.getByRole('combobox', { name: 'Status' }), 'Inactive');
    await waitFor(() => expect(within(screen.getByTestId('users-table')).getByText('user3@example.test')).toBeInTheDocument());
    expect(api.search).toHaveBeenLastCalledWith(expect.objectContaining({ filters: expect.objectContaining({ isActive: 'false' }), pageNumber: 1 }));

    await chooseOption(u, screen.getByRole('combobox', { name: 'Role' }), 'Tester');
    expect(screen.getByRole('combobox', { name: 'Role' })).toHaveTextContent('Tester');
    await waitFor(() => expect(api.search).toHaveBeenLastCalledWith(expect.objectContaining({ filters: expect.objectContaining({ roleId: 'r-tester' }) })));

    await u.click(within(screen.getByTestId('users-table')).getByRole('button', { name: /E-mail address/ }));
    await waitFor(() => expect(api.search).toHaveBeenLastCalledWith(expect.objectContaining({ orderBy: ['email asc'] })));
  });

  it('should show the empty, no-match and error states', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    const { user: u } = renderAt('/users', <UsersPage />);
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
    await u.type(screen.getByRole('searchbox', { name: 'Search users' }), 'zz');
    expect(await screen.findByText('No users match')).toBeInTheDocument();
    api.search.mockRejectedValueOnce({ status: 500, statusCode: 500, messages: ['Database down'] });
    await u.type(screen.getByRole('searchbox', { name: 'Search users' }), 'z');
    // The reason is worded asynchronously (normalizeError), after the error state appears.
    await waitFor(() => expect(screen.getByTestId('error-state')).toHaveTextContent('Database down'), { timeout: 3000 });
    await u.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No users match')).toBeInTheDocument();
  });

  it('should offer only the buttons and row actions the caller may use', async () => {
    grant([P.Users.Search, P.Users.View]);
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1)], query));
    renderAt('/users', <UsersPage />);
    await screen.findByTestId('users-table');
    expect(screen.queryByRole('button', { name: 'Create user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export to Excel' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import from directory' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Bulk upload' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Actions for user1' })).toBeNull();
  });

  it('should deactivate a user from the keyboard-driven row menu, after confirming, and reload the list', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1)], query));
    api.toggleStatus.mockResolvedValue({ userId: user(1).id, isActive: false, emailConfirmed: true, message: 'ok' });
    const { user: u } = renderAt('/users', <UsersPage />);
    const trigger = await screen.findByRole('button', { name: 'Actions for user1' });
    const menu = await openMenu(u, trigger);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Edit', 'Roles', 'Deactivate', 'Require a new password at next sign-in', 'Mark e-mail as not confirmed', 'Login history']);
    // Ark keeps focus on the menu and points at the current item.
    await waitFor(() => expect(menu).toHaveFocus());
    await waitFor(() => expect(menu).toHaveAttribute('aria-activedescendant', within(menu).getByRole('menuitem', { name: 'Edit' }).id));
    await u.keyboard('{ArrowDown}{ArrowDown}');
    expect(menu).toHaveAttribute('aria-activedescendant', within(menu).getByRole('menuitem', { name: 'Deactivate' }).id);
    await u.keyboard('{Enter}');

    // Deactivation asks first; Escape (like Cancel) changes nothing. Where the focus starts is
    // checked in Chromium (tests/e2e/confirm-dialogs.test.ts): jsdom has no layout to tell
    // Ark's focus trap that the buttons are visible.
    let question = await screen.findByRole('alertdialog', { name: 'Deactivate this user?' });
    expect(question).toHaveTextContent('user1 will be signed out everywhere');
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.toggleStatus).not.toHaveBeenCalled();

    await chooseMenuItem(u, screen.getByRole('button', { name: 'Actions for user1' }), 'Deactivate');
    question = await screen.findByRole('alertdialog', { name: 'Deactivate this user?' });
    const calls = api.search.mock.calls.length;
    await u.click(within(question).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(api.toggleStatus).toHaveBeenCalledWith(user(1).id, false));
    await waitFor(() => expect(api.search.mock.calls.length).toBeGreaterThan(calls));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    const again = screen.getByRole('button', { name: 'Actions for user1' });
    // Escape reaches the menu once the menu holds the focus, as a keyboard user's would.
    await openMenu(u, again);
    await closeMenu(u, again);
    expect(again).toHaveFocus();
  });

  it('should resend an invitation to a user who has not chosen a password and open the login history', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([user(4, { isFirstTimeLogin: true, emailConfirmed: false })], query));
    api.resendInvitation.mockResolvedValue({ results: [{ userId: user(4).id, outcome: 'invitationSent' }] });
    const { user: u, location } = renderAt('/users', <UsersPage />);
    await chooseMenuItem(u, await screen.findByRole('button', { name: 'Actions for user4' }), 'Resend invitation');
    await waitFor(() => expect(api.resendInvitation).toHaveBeenCalledWith(user(4).id));
    await chooseMenuItem(u, screen.getByRole('button', { name: 'Actions for user4' }), 'Login history');
    await waitFor(() => expect(location.current()).toBe(`/users/${user(4).id}/login-history`));
  });

  it('should check the create form and create a user with an invitation', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    api.create.mockResolvedValue(user(9));
    const { user: u } = renderAt('/users', <UsersPage />);
    await u.click(await screen.findByRole('button', { name: 'Create user' }));
    const dialog = await screen.findByTestId('user-dialog');
    await u.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(4);
    expect(api.create).not.toHaveBeenCalled();
    await u.type(within(dialog).getByRole('textbox', { name: /First name/ }), 'Asha');
    await u.type(within(dialog).getByRole('textbox', { name: /Last name/ }), 'Rao');
    await u.type(within(dialog).getByRole('textbox', { name: /E-mail address/ }), 'not-an-email');
    await u.type(within(dialog).getByRole('textbox', { name: /User name/ }), 'asha');
    await u.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Enter an e-mail address such as name@example.com.')).toBeInTheDocument();
    await u.clear(within(dialog).getByRole('textbox', { name: /E-mail address/ }));
    await u.type(within(dialog).getByRole('textbox', { name: /E-mail address/ }), 'asha@example.test');
    await chooseOption(u, within(dialog).getByRole('combobox', { name: 'Role' }), 'Tester');
    expect(within(dialog).getByRole('radio', { name: /Send an invitation/ })).toBeChecked();
    await u.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(api.create).toHaveBeenCalledWith({
        firstName: 'Asha',
        lastName: 'Rao',
        email: 'asha@example.test',
        userName: 'asha',
        phoneNumber: null,
        dateOfBirth: null,
        roleId: 'r-tester',
        isSendInvitation: true,
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('user-dialog')).toBeNull());
  });

  it('should show the server’s field errors in the form (taken user name)', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1)], query));
    api.edit.mockRejectedValue({ status: 400, title: 'One or more validation errors occurred.', errors: { userName: ['The user name is taken.'] } });
    const { user: u } = renderAt('/users', <UsersPage />);
    await chooseMenuItem(u, await screen.findByRole('button', { name: 'Actions for user1' }), 'Edit');
    const dialog = await screen.findByTestId('user-dialog');
    // The user opened for editing is the user slice; the update that throws removes it (spec §4).
    expect(userStore.getSnapshot().context.selected).toMatchObject({ id: user(1).id });
    expect(within(dialog).getByRole('textbox', { name: /First name/ })).toHaveValue('First1');
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The user name is taken.')).toBeInTheDocument();
    expect(userStore.getSnapshot().context.selected).toBeNull();
    expect(api.edit).toHaveBeenCalledWith(expect.objectContaining({ id: user(1).id, userName: 'user1' }));
  });

  it('should send only the roles that changed', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1)], query));
    api.roles.mockResolvedValue([
      { roleId: 'r-admin', roleName: 'Admin', description: 'Full access', enabled: false },
      { roleId: 'r-cand', roleName: 'Candidate', description: 'Takes exams', enabled: true },
      { roleId: 'r-tester', roleName: 'Tester', description: 'Audits', enabled: false },
    ]);
    api.activeRoles.mockResolvedValue([{ roleId: 'r-cand', roleName: 'Candidate', description: 'Takes exams' }]);
    api.setRoles.mockResolvedValue([]);
    const { user: u } = renderAt('/users', <UsersPage />);
    await chooseMenuItem(u, await screen.findByRole('button', { name: 'Actions for user1' }), 'Roles');
    const dialog = await screen.findByTestId('roles-dialog');
    // What the user holds now, from GET /users/{id}/activeroles (spec §7).
    expect(await within(dialog).findByTestId('active-roles')).toHaveTextContent('Holds now: Candidate.');
    expect(api.activeRoles).toHaveBeenCalledWith(user(1).id);
    await u.click(await within(dialog).findByRole('checkbox', { name: /Tester/ }));
    await u.click(within(dialog).getByRole('checkbox', { name: /Candidate/ }));
    expect(within(dialog).getByTestId('role-changes')).toHaveTextContent('Saving adds: Tester. Saving removes: Candidate.');
    await u.click(within(dialog).getByRole('checkbox', { name: /Candidate/ }));
    expect(within(dialog).getByTestId('role-changes')).toHaveTextContent(/^Saving adds: Tester\.$/);
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.setRoles).toHaveBeenCalledWith(user(1).id, [{ roleId: 'r-tester', enabled: true }]));
  });

  it('should hide directory import when the server has no directory, and say why in a tooltip (issue 23)', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    appConfig.directoryConfigured = false;
    const { user: u } = renderAt('/users', <UsersPage />);
    const why = await screen.findByRole('button', { name: 'Import from directory is not available' });
    expect(screen.queryByRole('button', { name: 'Import from directory' })).toBeNull();
    await u.hover(why);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'The company directory is not set up on this server. Ask the server administrator to configure LDAP.',
    );
  });

  it('should say clearly when the directory is not configured, and import a directory user when it is', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    // The server said it has a directory (runtime configuration), but the call finds none.
    appConfig.directoryConfigured = true;
    onTestFinished(() => {
      appConfig.directoryConfigured = false;
    });
    api.directorySearch.mockRejectedValueOnce({ statusCode: 400, messages: ['The enterprise directory is not configured.'], reason: 'directoryNotConfigured' });
    const { user: u } = renderAt('/users', <UsersPage />);
    await u.click(await screen.findByRole('button', { name: 'Import from directory' }));
    const dialog = await screen.findByTestId('directory-dialog');
    await u.type(within(dialog).getByRole('searchbox'), 'ravi');
    await u.keyboard('{Enter}');
    expect(await within(dialog).findByTestId('directory-not-configured')).toHaveTextContent('The company directory is not set up on this server');

    api.directorySearch.mockResolvedValueOnce({
      data: [
        { userName: 'ravi', email: 'ravi@corp.test', firstName: 'Ravi', lastName: 'K', displayName: 'Ravi K', alreadyImported: false },
        { userName: 'mina', email: 'mina@corp.test', firstName: 'Mina', lastName: 'S', displayName: 'Mina S', alreadyImported: true },
      ],
    });
    api.create.mockResolvedValue(user(5));
    await u.click(within(dialog).getByRole('button', { name: 'Search' }));
    expect(await within(dialog).findByText('Already a user')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Import mina' })).toBeNull();
    await u.click(within(dialog).getByRole('button', { name: 'Import ravi' }));
    await waitFor(() => expect(api.create).toHaveBeenCalledWith({ userName: 'ravi', loginType: 'directory' }));
  });

  it('should look up one exact directory user name, and say when there is none (spec §7 getusersfromad)', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    appConfig.directoryConfigured = true;
    onTestFinished(() => {
      appConfig.directoryConfigured = false;
    });
    api.directoryLookup.mockRejectedValueOnce({ statusCode: 404, messages: ['No directory user has this user name.'] });
    const { user: u } = renderAt('/users', <UsersPage />);
    await u.click(await screen.findByRole('button', { name: 'Import from directory' }));
    const dialog = await screen.findByTestId('directory-dialog');
    expect(within(dialog).getByRole('button', { name: 'Look up user name' })).toBeDisabled();
    await u.type(within(dialog).getByRole('searchbox'), ' kiran ');
    await u.click(within(dialog).getByRole('button', { name: 'Look up user name' }));
    expect(api.directoryLookup).toHaveBeenCalledWith('kiran');
    expect(await within(dialog).findByText('No directory user has the user name kiran.')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('dialog-error')).toBeNull();
    expect(api.directorySearch).not.toHaveBeenCalled();

    api.directoryLookup.mockResolvedValueOnce({
      userName: 'kiran',
      email: 'kiran@corp.test',
      firstName: 'Kiran',
      lastName: 'M',
      displayName: 'Kiran M',
      alreadyImported: false,
    });
    api.create.mockResolvedValue(user(6));
    await u.click(within(dialog).getByRole('button', { name: 'Look up user name' }));
    expect(await within(dialog).findByText('Kiran M')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Import kiran' }));
    await waitFor(() => expect(api.create).toHaveBeenCalledWith({ userName: 'kiran', loginType: 'directory' }));
  });

  it("should give the server's verdict on the e-mail address when the field is left (spec §7 validateemail)", async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    const { user: u } = renderAt('/users', <UsersPage />);
    await u.click(await screen.findByRole('button', { name: 'Create user' }));
    const dialog = await screen.findByTestId('user-dialog');
    const email = within(dialog).getByRole('textbox', { name: /E-mail address/ });
    await u.type(email, 'asha@example');
    await u.tab();
    expect(await within(dialog).findByText('This is not a valid e-mail address.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(emailCheckApi.validate).toHaveBeenLastCalledWith('asha@example', { userId: undefined });
    // Typing again drops the verdict until the field is left again.
    await u.type(email, '.test');
    expect(within(dialog).queryByText('This is not a valid e-mail address.')).toBeNull();
    await u.clear(email);
    await u.type(email, 'Asha@Example.test');
    await u.tab();
    expect(await within(dialog).findByText('The address is accepted, and saved as asha@example.test.')).toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('should say before the save that another account has the address, the edited user’s own address being free (docs/decisions/0282)', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1)], query));
    // An administrator's check also answers availability: here one address is taken.
    vi.mocked(emailCheckApi.validate).mockImplementation(async (email: string, availability?: { userId?: string }) => ({
      email: email.toLowerCase(),
      isValid: true,
      ...(availability ? { isAvailable: email.toLowerCase() !== 'taken@example.test' } : {}),
      message: '',
    }));
    const { user: u } = renderAt('/users', <UsersPage />);
    await u.click(await screen.findByRole('button', { name: 'Create user' }));
    let dialog = await screen.findByTestId('user-dialog');
    let email = within(dialog).getByRole('textbox', { name: /E-mail address/ });
    await u.type(email, 'taken@example.test');
    await u.tab();
    expect(await within(dialog).findByText('An account with this e-mail address already exists.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(emailCheckApi.validate).toHaveBeenLastCalledWith('taken@example.test', { userId: undefined });
    await u.clear(email);
    await u.type(email, 'free@example.test');
    await u.tab();
    expect(await within(dialog).findByText('The address is free: no other account uses it.')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('user-dialog')).toBeNull());

    await chooseMenuItem(u, await screen.findByRole('button', { name: 'Actions for user1' }), 'Edit');
    dialog = await screen.findByTestId('user-dialog');
    email = within(dialog).getByRole('textbox', { name: /E-mail address/ });
    await u.click(email);
    await u.tab();
    await waitFor(() => expect(emailCheckApi.validate).toHaveBeenLastCalledWith(user(1).email, { userId: user(1).id }));
  });

  it('should export the list with the current filters, showing progress until the file is saved', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1)], query));
    let report: ((p: { loaded: number; total: number | null; fraction: number | null }) => void) | undefined;
    let finish: (() => void) | undefined;
    api.exportUsers.mockImplementation(
      (_query: PagedQuery, onProgress: typeof report) =>
        new Promise((resolve) => {
          report = onProgress;
          finish = () => resolve({ blob: new Blob(['x']), filename: 'users-2026.xlsx', contentType: 'application/octet-stream' });
        }),
    );
    const { user: u } = renderAt('/users', <UsersPage />);
    await screen.findByTestId('users-table');
    await chooseOption(u, screen.getByRole('combobox', { name: 'E-mail' }), 'Confirmed');
    await u.click(screen.getByRole('button', { name: 'Export to Excel' }));
    expect(api.exportUsers).toHaveBeenCalledWith(
      expect.objectContaining({ filters: expect.objectContaining({ emailConfirmed: 'true' }) }),
      expect.any(Function),
    );
    act(() => report?.({ loaded: 65_536, total: 262_144, fraction: 0.25 }));
    expect(screen.getByTestId('export-users-progress')).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByRole('progressbar', { name: 'Downloading' })).toBe(screen.getByTestId('export-users-progress'));
    await act(async () => finish?.());
    await waitFor(() => expect(saved).toHaveBeenCalledWith(expect.any(Blob), 'users-2026.xlsx'));
    expect(screen.queryByTestId('export-users-progress')).toBeNull();
  });

  it('should show a no-access note instead of the screen without Users.Search', async () => {
    grant([P.Dashboard.View]);
    renderAt('/users', <UsersPage />);
    expect(await screen.findByTestId('no-access')).toHaveTextContent('You do not have access to this screen');
    expect(api.search).not.toHaveBeenCalled();
  });
});

describe('roles screen', () => {
  it('should list roles with their permission counts and search them', async () => {
    api.searchRoles.mockImplementation(async (query: PagedQuery) => page(query.keyword ? [roles[1]] : roles, query));
    const { user: u } = renderAt('/roles', <RolesPage />);
    const table = await screen.findByTestId('roles-table');
    expect(within(table).getByText(`${allPermissions.length} permissions`)).toBeInTheDocument();
    expect(within(table).getByText('1 permission')).toBeInTheDocument();
    await u.type(screen.getByRole('searchbox', { name: 'Search roles' }), 'test');
    await waitFor(() => expect(within(screen.getByTestId('roles-table')).queryByText('Administrator')).toBeNull());
    expect(api.searchRoles).toHaveBeenLastCalledWith(expect.objectContaining({ keyword: 'test' }));
  });
});

describe('the users screen on a phone (issue 23)', () => {
  it('should fold the filters behind one button and show the users as cards', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: /max-width:\s*([\d.]+)px/.test(query) ? 390 <= Number(/max-width:\s*([\d.]+)px/.exec(query)![1]) : false,
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList,
    );
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1)], query));
    const { user: u } = renderAt('/users?isActive=true', <UsersPage />);
    const toggle = await screen.findByRole('button', { name: 'Filters (1 on)' });
    expect(screen.getByTestId('filters-panel')).not.toBeVisible();
    await u.click(toggle);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Status' })).toBeVisible());
    expect(await screen.findAllByTestId('row-card')).toHaveLength(1);
    expect(screen.queryByRole('table')).toBeNull();
  }, 20_000);
});

describe('require a new password (spec §7 updatefirsttimelogin, issue 23)', () => {
  it('should set and clear the flag from the row menu and say so', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([user(1), user(2, { isFirstTimeLogin: true })], query));
    api.setFirstTimeLogin.mockResolvedValue({ userId: user(1).id, isFirstTimeLogin: true, message: 'ok' });
    const { user: u } = renderAt('/users', <UsersPage />);
    await chooseMenuItem(u, await screen.findByRole('button', { name: 'Actions for user1' }), 'Require a new password at next sign-in');
    await waitFor(() => expect(api.setFirstTimeLogin).toHaveBeenCalledWith(user(1).id, true));
    await chooseMenuItem(u, screen.getByRole('button', { name: 'Actions for user2' }), 'Drop the new-password requirement');
    await waitFor(() => expect(api.setFirstTimeLogin).toHaveBeenLastCalledWith(user(2).id, false));
  }, 20_000);
});

describe('role management (issue 23)', () => {
  const custom = {
    id: 'r-desk',
    name: 'Desk lead',
    description: 'Leads the desk',
    isSystem: false,
    permissions: [P.SupportTickets.View, P.SupportTickets.Work],
    userCount: 2,
  };
  const listed = () => api.searchRoles.mockImplementation(async (query: PagedQuery) => page([...roles, custom], query));

  it('should show seeded roles translated and read-only, and custom roles with their actions', async () => {
    listed();
    renderAt('/roles', <RolesPage />);
    const table = await screen.findByTestId('roles-table');
    expect(within(table).getByText('Administrator')).toBeInTheDocument();
    expect(within(table).getByText('Full access to every area')).toBeInTheDocument();
    expect(within(table).getByText('Desk lead')).toBeInTheDocument();
    expect(within(within(table).getByText('Desk lead').closest('tr')!).getByText('Support tickets: Work')).toBeInTheDocument();
    expect(within(table).getAllByText('Seeded')).toHaveLength(2);
    expect(within(table).getAllByRole('button', { name: /^Actions of/ })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'New role' })).toBeInTheDocument();
  }, 20_000);

  it('should offer no management without Roles.Manage', async () => {
    listed();
    grant([P.Roles.View]);
    renderAt('/roles', <RolesPage />);
    await screen.findByTestId('roles-table');
    expect(screen.queryByRole('button', { name: 'New role' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions of/ })).toBeNull();
  }, 20_000);

  it('should create a role from the matrix, never offering a permission the user lacks', async () => {
    listed();
    grant([P.Roles.View, P.Roles.Manage, P.SupportTickets.View, P.SupportTickets.Work]);
    api.createRole.mockImplementation(async (body: { name: string; permissions: string[] }) => ({ ...custom, id: 'r-new', ...body }));
    const { user: u } = renderAt('/roles', <RolesPage />);
    await screen.findByTestId('roles-table');
    await u.click(screen.getByRole('button', { name: 'New role' }));
    const dialog = await screen.findByTestId('role-dialog');
    // Nothing picked: both problems said on the spot, nothing sent.
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter a name.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one permission.')).toBeInTheDocument();
    expect(api.createRole).not.toHaveBeenCalled();

    const work = within(dialog).getByRole('checkbox', { name: /^Support tickets:\s*Work$/ });
    const usersCreate = within(dialog).getByRole('checkbox', { name: /^Users:\s*Create$/ });
    expect(usersCreate).toBeDisabled();
    expect(work).toBeEnabled();
    await u.type(within(dialog).getByRole('textbox', { name: /Name/ }), '  Night desk ');
    await u.click(work);
    await u.click(within(dialog).getByRole('checkbox', { name: /^Support tickets:\s*View$/ }));
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.createRole).toHaveBeenCalledWith({ name: 'Night desk', description: '', permissions: [P.SupportTickets.View, P.SupportTickets.Work] }),
    );
    await waitFor(() => expect(screen.queryByTestId('role-dialog')).toBeNull());
    // The role slice holds the role just saved (spec §4).
    expect(roleStore.getSnapshot().context.selected).toMatchObject({ id: 'r-new', name: 'Night desk' });
  }, 20_000);

  it('should show a taken name (400) on the field and a refused edit (409) in the server’s words', async () => {
    listed();
    api.createRole.mockRejectedValueOnce({
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { name: ['A role with this name already exists.'] },
    });
    const { user: u } = renderAt('/roles', <RolesPage />);
    await screen.findByTestId('roles-table');
    await u.click(screen.getByRole('button', { name: 'New role' }));
    let dialog = await screen.findByTestId('role-dialog');
    await u.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Tester');
    await u.click(within(dialog).getByRole('checkbox', { name: /^Statecharts:\s*View$/ }));
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A role with this name already exists.')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('role-dialog')).toBeNull());

    api.editRole.mockRejectedValueOnce({
      messages: ['The seeded roles are read-only; create a custom role instead.'],
      statusCode: 409,
      exception: 'ConflictException',
    });
    await chooseMenuItem(u, screen.getByRole('button', { name: 'Actions of Desk lead' }), 'Edit');
    dialog = await screen.findByTestId('role-dialog');
    expect(roleStore.getSnapshot().context.selected).toMatchObject({ id: 'r-desk' });
    expect(within(dialog).getByRole('checkbox', { name: /^Support tickets:\s*Work$/ })).toBeChecked();
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByTestId('dialog-error')).toHaveTextContent('The seeded roles are read-only; create a custom role instead.');
    // A refused save resets it.
    expect(roleStore.getSnapshot().context.selected).toBeNull();
    expect(api.editRole).toHaveBeenCalledWith('r-desk', {
      name: 'Desk lead',
      description: 'Leads the desk',
      permissions: [P.SupportTickets.View, P.SupportTickets.Work],
    });
  }, 20_000);

  it('should retire a custom role only after confirming, naming how many users lose it', async () => {
    listed();
    api.retireRole.mockResolvedValue({ message: 'The role has been retired.', roleId: 'r-desk', usersAffected: 2 });
    const { user: u } = renderAt('/roles', <RolesPage />);
    await screen.findByTestId('roles-table');
    await chooseMenuItem(u, screen.getByRole('button', { name: 'Actions of Desk lead' }), 'Retire');
    let question = await screen.findByRole('alertdialog');
    expect(question).toHaveTextContent('Desk lead is taken away from the 2 user(s) who hold it');
    await u.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(api.retireRole).not.toHaveBeenCalled();

    await chooseMenuItem(u, screen.getByRole('button', { name: 'Actions of Desk lead' }), 'Retire');
    question = await screen.findByRole('alertdialog');
    await u.click(within(question).getByRole('button', { name: 'Retire role' }));
    await waitFor(() => expect(api.retireRole).toHaveBeenCalledWith('r-desk'));
  }, 20_000);
});

describe('login history', () => {
  const row = {
    id: 'h1',
    userId: 'u1',
    email: 'asha@example.test',
    userName: 'asha',
    time: '2026-11-20T10:00:00.000Z',
    event: 'loginFailed',
    outcome: 'failure',
    reason: 'badPassword',
    ipAddress: '127.0.0.1',
    userAgent: 'Chromium',
  };

  it('should show your own sign-ins with outcome, IP and browser', async () => {
    api.loginHistory.mockImplementation(async (_scope: unknown, query: PagedQuery) => page([row], query));
    renderAt('/account/login-history', <OwnLoginHistoryPage />);
    const table = await screen.findByTestId('login-history-table');
    expect(within(table).getByText('Failed sign-in')).toBeInTheDocument();
    expect(within(table).getByText('Failure')).toBeInTheDocument();
    expect(within(table).getByText('127.0.0.1')).toBeInTheDocument();
    expect(within(table).queryByText('asha@example.test')).toBeNull();
    expect(api.loginHistory).toHaveBeenCalledWith({ kind: 'own' }, expect.objectContaining({ orderBy: ['time desc'] }));
  });

  it('should show one user’s history to an administrator, and everyone’s on /login-history', async () => {
    api.loginHistory.mockImplementation(async (_scope: unknown, query: PagedQuery) => page([row], query));
    const { user: u } = renderAt('/users/u1/login-history', <AdminLoginHistoryPage />, '/users/:userId/login-history');
    const table = await screen.findByTestId('login-history-table');
    expect(within(table).getByText('asha@example.test')).toBeInTheDocument();
    expect(api.loginHistory).toHaveBeenCalledWith({ kind: 'user', userId: 'u1' }, expect.anything());
    await chooseOption(u, screen.getByRole('combobox', { name: 'Event' }), 'Sign-out');
    await waitFor(() =>
      expect(api.loginHistory).toHaveBeenLastCalledWith({ kind: 'user', userId: 'u1' }, expect.objectContaining({ filters: { event: 'logout' } })),
    );
  });

  it('should say when there is nothing to show', async () => {
    api.loginHistory.mockImplementation(async (_scope: unknown, query: PagedQuery) => page([], query));
    renderAt('/login-history', <AdminLoginHistoryPage />);
    expect(await screen.findByText('No sign-ins to show.')).toBeInTheDocument();
    expect(api.loginHistory).toHaveBeenCalledWith({ kind: 'all' }, expect.anything());
  });
});

describe('bulk upload', () => {
  const job = (overrides: Partial<UploadJob> = {}): UploadJob => ({
    jobId: 'j1',
    fileName: 'people.xlsx',
    state: 'running',
    message: null,
    totalRows: 3,
    processedRows: 1,
    createdCount: 1,
    failedCount: 0,
    hasErrorFile: false,
    uploadedBy: null,
    createdOn: '2026-11-20T10:00:00.000Z',
    finishedOn: null,
    ...overrides,
  });

  it('should upload the chosen file with progress and refresh the job list until the job finishes', async () => {
    let finished = false;
    api.jobs.mockImplementation(async (query: PagedQuery) =>
      page(finished ? [job({ state: 'finished', processedRows: 3, createdCount: 2, failedCount: 1, hasErrorFile: true })] : [job()], query),
    );
    let reportProgress: ((p: { loaded: number; total: number; fraction: number }) => void) | undefined;
    let finishUpload: (() => void) | undefined;
    api.uploadUsers.mockImplementation(
      (_file: File, onProgress: typeof reportProgress) =>
        new Promise((resolve) => {
          reportProgress = onProgress;
          finishUpload = () => resolve({ jobId: 'j1', fileName: 'people.xlsx', state: 'queued', message: 'queued' });
        }),
    );
    const { user: u } = renderAt('/users/bulk-upload', <BulkUploadPage />);
    expect(await screen.findByTestId('job-state-j1')).toHaveTextContent('Running');
    const calls = api.jobs.mock.calls.length;

    const file = new File(['PK'], 'people.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await u.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file);
    await u.click(screen.getByRole('button', { name: 'Upload' }));
    act(() => reportProgress?.({ loaded: 65_536, total: 131_072, fraction: 0.5 }));
    expect(screen.getByTestId('upload-progress')).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByRole('progressbar', { name: 'Uploading' })).toBe(screen.getByTestId('upload-progress'));
    finished = true;
    await act(async () => finishUpload?.());
    expect(api.uploadUsers).toHaveBeenCalledWith(file, expect.any(Function), null);
    await waitFor(() => expect(screen.getByTestId('job-state-j1')).toHaveTextContent('Finished'), { timeout: 4000 });
    expect(api.jobs.mock.calls.length).toBeGreaterThan(calls);
    expect(screen.getByTestId('job-created')).toHaveTextContent('2');
    expect(screen.getByTestId('job-failed')).toHaveTextContent('1');
    expect(screen.getByRole('button', { name: 'Error file of people.xlsx' })).toBeInTheDocument();
    // Finished: the list stops asking.
    const settled = api.jobs.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(api.jobs.mock.calls.length).toBe(settled);
  });

  it('should pass where invitees land (RedirectUrl), refusing anything but a path of the app (issue 23)', async () => {
    api.jobs.mockImplementation(async (query: PagedQuery) => page([], query));
    api.uploadUsers.mockResolvedValue({ jobId: 'j2', fileName: 'people.xlsx', state: 'queued', message: 'queued' });
    const { user: u } = renderAt('/users/bulk-upload', <BulkUploadPage />);
    const file = new File(['PK'], 'people.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await u.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file);
    const landing = screen.getByRole('textbox', { name: /invitees land on/ });
    await u.type(landing, '//evil.test');
    expect(screen.getByText('Enter a path of this app that starts with /.')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Upload' }));
    expect(api.uploadUsers).not.toHaveBeenCalled();
    await u.clear(landing);
    await u.type(landing, '/exams');
    await u.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(api.uploadUsers).toHaveBeenCalledWith(file, expect.any(Function), '/exams'));
  }, 20_000);

  it('should keep polling a running job on its own', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.jobs.mockImplementation(async (query: PagedQuery) => page([job()], query));
    renderAt('/users/bulk-upload', <BulkUploadPage />);
    await screen.findByTestId('job-state-j1');
    const calls = api.jobs.mock.calls.length;
    await act(async () => vi.advanceTimersByTimeAsync(4_100));
    expect(api.jobs.mock.calls.length).toBeGreaterThanOrEqual(calls + 2);
  });

  it('should show an empty list and refuse a file over 5 MB on the spot', async () => {
    api.jobs.mockImplementation(async (query: PagedQuery) => page([], query));
    const { user: u } = renderAt('/users/bulk-upload', <BulkUploadPage />);
    expect(await screen.findByText('No uploads yet.')).toBeInTheDocument();
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.xlsx');
    await u.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, big);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
  });
});

describe('my languages', () => {
  it('should list, refuse a bad tag, add and remove languages', async () => {
    api.languages.mockResolvedValue([{ id: 'l1', userId: 'u1', languageCode: 'hi', createdOn: '2026-11-20T10:00:00.000Z' }]);
    api.addLanguage.mockResolvedValue({ id: 'l2', userId: 'u1', languageCode: 'gu', createdOn: '2026-11-20T10:00:00.000Z' });
    api.removeLanguage.mockResolvedValue(undefined);
    const { user: u } = renderAt('/account', <AccountPage />);
    const list = await screen.findByTestId('language-list');
    expect(within(list).getByText('Hindi')).toBeInTheDocument();
    const input = screen.getByRole('combobox', { name: /Language/ });
    await u.type(input, 'not a tag');
    await u.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText('Enter a language tag such as en-IN, hi or gu.')).toBeInTheDocument();
    expect(api.addLanguage).not.toHaveBeenCalled();
    await u.clear(input);
    await u.type(input, 'gu{Enter}');
    await waitFor(() => expect(within(screen.getByTestId('language-list')).getByText('Gujarati')).toBeInTheDocument());
    expect(api.addLanguage).toHaveBeenCalledWith('gu');
    await u.click(screen.getByRole('button', { name: 'Remove Hindi' }));
    await waitFor(() => expect(within(screen.getByTestId('language-list')).queryByText('Hindi')).toBeNull());
    expect(api.removeLanguage).toHaveBeenCalledWith('l1');
  });

  it('should say when there are none, and show a failed load with a retry', async () => {
    api.languages.mockRejectedValueOnce({ status: 500, statusCode: 500, messages: ['Try later'] }).mockResolvedValueOnce([]);
    const { user: u } = renderAt('/account', <AccountPage />);
    // The profile's other sections load on their own (and fail here, unmocked): the languages' error is the one saying 'Try later'.
    const languagesError = () => screen.getAllByTestId('error-state').find((state) => state.textContent?.includes('Try later'));
    await waitFor(() => expect(languagesError()).toBeDefined(), { timeout: 3000 });
    await u.click(within(languagesError()!).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No languages yet.')).toBeInTheDocument();
  });
});
