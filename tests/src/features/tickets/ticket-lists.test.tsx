import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import type { TicketSummary } from '#src/features/tickets/api/tickets-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { chooseOption } from '#tests/src/support/select.ts';

const api = vi.hoisted(() => ({
  search: vi.fn(),
  counts: vi.fn(),
  perform: vi.fn(),
  create: vi.fn(),
  list: vi.fn(),
  mine: vi.fn(),
  update: vi.fn(),
  agents: vi.fn(),
  setMembers: vi.fn(),
  createGroup: vi.fn(),
}));

vi.mock('#src/features/tickets/api/tickets-api.ts', () => ({
  ticketsApi: { search: api.search, counts: api.counts, perform: api.perform, create: api.create },
  supportGroupsApi: { list: api.list, mine: api.mine, update: api.update, agents: api.agents, setMembers: api.setMembers, create: api.createGroup },
}));

const { default: MyTicketsPage } = await import('#src/features/tickets/my-tickets-page.tsx');
const { default: SupportDeskPage } = await import('#src/features/tickets/support-desk-page.tsx');
const { default: SupportGroupsPage } = await import('#src/features/tickets/support-groups-page.tsx');

const summary = (id: number, overrides: Partial<TicketSummary> = {}): TicketSummary => ({
  ticketId: id,
  title: `Ticket number ${id}`,
  description: 'd',
  statusId: 1,
  status: 'Open',
  supportTicketPriorityId: 2,
  supportGroupId: 1,
  supportGroupName: 'General Support',
  loginUserId: 'u1',
  requesterName: 'Asha Candidate',
  requesterEmail: 'a@example.test',
  createdBy: 'u1',
  assigneeId: null,
  assigneeName: null,
  parentSupportTicketId: null,
  createdOn: '2026-11-20T10:00:00.000Z',
  lastModifiedOn: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const page = (rows: TicketSummary[], query: PagedQuery, total = rows.length) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: Math.ceil(total / query.pageSize),
  totalCount: total,
  pageSize: query.pageSize,
  hasPreviousPage: query.pageNumber > 1,
  hasNextPage: query.pageNumber * query.pageSize < total,
});

const counts = {
  total: 3,
  byStatus: [1, 2, 3, 4, 5, 6, 7].map((statusId) => ({ statusId, status: String(statusId), count: statusId === 1 ? 2 : statusId === 5 ? 1 : 0 })),
};

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['tickets', 'ui', 'errors']);
});
beforeEach(() => {
  api.counts.mockResolvedValue(counts);
  api.list.mockResolvedValue([{ supportGroupId: 1, name: 'General Support', description: 'Anything', isActive: true, sortOrder: 1, memberCount: 1 }]);
  api.mine.mockResolvedValue([{ supportGroupId: 1, name: 'General Support', description: 'Anything', isActive: true, sortOrder: 1, memberCount: 1 }]);
});
afterEach(() => {
  vi.clearAllMocks();
});

describe('my tickets', () => {
  it('should list the requester’s tickets with counts per status and filter by status', async () => {
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) =>
      page(query.filters.statusId === 5 ? [summary(3, { statusId: 5, status: 'Resolved' })] : [summary(1), summary(2)], query),
    );
    const { user } = renderAt('/tickets', <MyTicketsPage />);
    const list = await screen.findByTestId('ticket-list');
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Ticket number 1', 'Ticket number 2']);
    expect(api.search).toHaveBeenCalledWith('mine', expect.objectContaining({ pageNumber: 1, orderBy: ['lastModifiedOn desc'] }));
    const filter = screen.getByTestId('status-filter');
    expect(within(filter).getByRole('button', { name: /All\s*3/ })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(filter).getByRole('button', { name: /Resolved\s*1/ }));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('ticket-list'))
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['Ticket number 3']),
    );
    expect(api.search).toHaveBeenLastCalledWith('mine', expect.objectContaining({ filters: { statusId: 5 } }));
  });

  it('should keep the filter and the page in the URL, and follow back, forward and a shared link', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => summary(i + 1, { statusId: 5, status: 'Resolved' }));
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => {
      const matching = query.filters.statusId === 5 ? rows : rows.slice(0, 2);
      return page(matching.slice((query.pageNumber - 1) * query.pageSize, query.pageNumber * query.pageSize), query, matching.length);
    });
    const { user, location } = renderAt('/tickets', <MyTicketsPage />);
    const firstLinks = () => within(screen.getByTestId('ticket-list')).getAllByRole('link')[0].textContent;
    await screen.findByTestId('ticket-list');
    await user.click(within(screen.getByTestId('status-filter')).getByRole('button', { name: /Resolved\s*1/ }));
    await waitFor(() => expect(location.current()).toBe('/tickets?statusId=5'));
    // As a person would: the pager takes no click while the filtered list is still coming.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location.current()).toBe('/tickets?statusId=5&page=2'));
    await waitFor(() => expect(firstLinks()).toBe('Ticket number 11'));

    location.go(-1);
    await waitFor(() => expect(firstLinks()).toBe('Ticket number 1'));
    expect(api.search).toHaveBeenLastCalledWith('mine', expect.objectContaining({ pageNumber: 1, filters: { statusId: 5 } }));
    location.go(-1);
    await waitFor(() => expect(api.search).toHaveBeenLastCalledWith('mine', expect.objectContaining({ pageNumber: 1, filters: { statusId: null } })));
    expect(within(screen.getByTestId('status-filter')).getByRole('button', { name: /All\s*3/ })).toHaveAttribute('aria-pressed', 'true');
    location.go(2);
    await waitFor(() => expect(firstLinks()).toBe('Ticket number 11'));
    expect(within(screen.getByTestId('status-filter')).getByRole('button', { name: /Resolved\s*1/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it('should open a shared link on the list it describes', async () => {
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([summary(9)], query, 30));
    renderAt('/tickets?statusId=5&page=3&sort=title+asc&q=webcam', <MyTicketsPage />);
    await screen.findByTestId('ticket-list');
    expect(api.search).toHaveBeenCalledTimes(1);
    expect(api.search).toHaveBeenCalledWith(
      'mine',
      expect.objectContaining({ keyword: 'webcam', pageNumber: 3, orderBy: ['title asc'], filters: { statusId: 5 } }),
    );
    expect(screen.getByRole('searchbox')).toHaveValue('webcam');
  });

  it('should invite to raise a first ticket when there is none', async () => {
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([], query));
    renderAt('/tickets', <MyTicketsPage />);
    expect(await screen.findByText('You have not raised any tickets yet')).toBeInTheDocument();
    expect(within(screen.getByTestId('empty-state')).getByRole('button', { name: 'Raise a ticket' })).toBeInTheDocument();
  });

  it('should check the form, raise the ticket and open it', async () => {
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([], query));
    api.create.mockResolvedValue({ ticketId: 77 });
    const { user, location } = renderAt('/tickets', <MyTicketsPage />);
    await user.click((await screen.findAllByRole('button', { name: 'Raise a ticket' }))[0]);
    const dialog = await screen.findByTestId('create-ticket-dialog', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: /Support group/ })).toHaveTextContent('General Support'));
    await user.click(within(dialog).getByRole('button', { name: 'Raise ticket' }));
    expect(within(dialog).getByText('Give the ticket a title.')).toBeInTheDocument();
    expect(within(dialog).getByText('Describe the problem.')).toBeInTheDocument();
    expect(api.create).not.toHaveBeenCalled();
    await user.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Webcam not found');
    await user.type(within(dialog).getByRole('textbox', { name: /Description/ }), 'The proctoring check fails.');
    await chooseOption(user, within(dialog).getByRole('combobox', { name: /Priority/ }), 'Urgent');
    await user.click(within(dialog).getByRole('button', { name: 'Raise ticket' }));
    await waitFor(() => expect(location.current()).toBe('/tickets/77'));
    expect(api.create).toHaveBeenCalledWith({
      title: 'Webcam not found',
      description: 'The proctoring check fails.',
      supportTicketPriorityId: 4,
      supportGroupId: 1,
      loginUserId: null,
    });
    // The form is a lazy chunk (Ark dialog, selects, file upload): its first load takes a while in jsdom.
  }, 20_000);
});

describe('the support desk', () => {
  it('should show the Open queue oldest first and claim from it', async () => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.Work'] });
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([summary(5, { requesterName: 'Bilal Candidate' })], query));
    api.perform.mockResolvedValue({});
    const { user, location } = renderAt('/support', <SupportDeskPage />);
    const list = await screen.findByTestId('ticket-list');
    expect(api.search).toHaveBeenCalledWith('desk', expect.objectContaining({ orderBy: ['createdOn asc'], filters: { statusId: 1 } }));
    expect(list).toHaveTextContent('Bilal Candidate');
    expect(screen.queryByRole('tab', { name: 'All tickets' })).toBeNull();
    await user.click(within(list).getByRole('button', { name: 'Claim ticket #5' }));
    await waitFor(() => expect(location.current()).toBe('/support/tickets/5'));
    expect(api.perform).toHaveBeenCalledWith(5, 'ticket.claim', {});
  });

  it('should give support admins the all-tickets view, reachable by arrow keys', async () => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.Work', 'Permissions.SupportTickets.Administer'] });
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([summary(9)], query));
    const { user } = renderAt('/support', <SupportDeskPage />);
    const queue = await screen.findByRole('tab', { name: 'Queue' });
    queue.focus();
    // Ark's tabs: the arrow key moves the focus, Enter shows the tab (selection on focus
    // runs on an animation frame that jsdom's focus events do not reach; Chromium does both).
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'All tickets' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'All tickets' })).toHaveAttribute('aria-selected', 'true'));
    // The desk's panel leaves the accessibility tree once its exit has run; one panel remains.
    await waitFor(() => expect(screen.getAllByRole('tabpanel')).toHaveLength(1));
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', screen.getByRole('tab', { name: 'All tickets' }).id);
    await waitFor(() => expect(api.search).toHaveBeenLastCalledWith('all', expect.objectContaining({ filters: {} })));
  });
});

describe('on a phone (issue 23)', () => {
  beforeEach(() => {
    // 390 px: max-width queries below it match.
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: /max-width:\s*([\d.]+)px/.test(query) ? 390 <= Number(/max-width:\s*([\d.]+)px/.exec(query)![1]) : false,
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList,
    );
  });
  afterEach(() => vi.restoreAllMocks());

  it('should fold the status filter of my tickets behind one button, the search still in view', async () => {
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([summary(1)], query));
    const { user } = renderAt('/tickets?statusId=5', <MyTicketsPage />);
    const toggle = await screen.findByRole('button', { name: 'Filters (1 on)' });
    expect(screen.getByRole('searchbox', { name: 'Search tickets by words or number' })).toBeVisible();
    expect(screen.queryByRole('group', { name: 'Filter by status' })).toBeNull();
    await user.click(toggle);
    expect(await screen.findByTestId('status-filter')).toBeVisible();
    await user.click(within(screen.getByTestId('status-filter')).getByRole('button', { name: /^All/ }));
    expect(await screen.findByRole('button', { name: 'Filters (0 on)' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('should fold the desk’s status and group behind one button that counts both', async () => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.Work'] });
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([summary(5)], query));
    const { user } = renderAt('/support?supportGroupId=1', <SupportDeskPage />);
    // The queue's default (Open) and the group from the link.
    const toggle = await screen.findByRole('button', { name: 'Filters (2 on)' });
    expect(screen.queryByRole('combobox', { name: 'Support group' })).toBeNull();
    await user.click(toggle);
    expect(await screen.findByRole('combobox', { name: 'Support group' })).toBeVisible();
    expect(screen.getByTestId('status-filter')).toBeVisible();
  });
});

describe('support groups', () => {
  it('should list groups, deactivate one and choose its agents', async () => {
    api.update.mockResolvedValue({});
    api.agents.mockResolvedValue([
      { userId: 'a1', firstName: 'Chen', lastName: 'Agent', email: 'chen@example.test', supportGroupIds: [1] },
      { userId: 'a2', firstName: 'Dana', lastName: 'Agent', email: 'dana@example.test', supportGroupIds: [] },
    ]);
    api.setMembers.mockResolvedValue([]);
    const { user } = renderAt('/support/groups', <SupportGroupsPage />);
    const table = await screen.findByTestId('groups-table');
    expect(table).toHaveTextContent('General Support');
    await user.click(within(table).getByRole('button', { name: 'Deactivate' }));
    // Deactivating asks first.
    const question = await screen.findByRole('alertdialog', { name: 'Deactivate this support group?' });
    expect(question).toHaveTextContent('General Support will take no new tickets');
    expect(api.update).not.toHaveBeenCalled();
    await user.click(within(question).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(api.update).toHaveBeenCalledWith(1, { isActive: false }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(within(table).getByRole('button', { name: 'Choose the agents of General Support' }));
    const dialog = await screen.findByTestId('members-dialog');
    const dana = await within(dialog).findByRole('checkbox', { name: /Dana Agent/ });
    expect(within(dialog).getByRole('checkbox', { name: /Chen Agent/ })).toBeChecked();
    await user.click(dana);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.setMembers).toHaveBeenCalledWith(1, ['a1', 'a2']));
  });

  it('should ask for a name of at least two characters before creating a group', async () => {
    api.createGroup.mockResolvedValue({});
    const { user } = renderAt('/support/groups', <SupportGroupsPage />);
    await user.click(await screen.findByRole('button', { name: 'New group' }));
    const dialog = await screen.findByTestId('group-dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'P');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('The name needs at least 2 characters.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'ayments');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.createGroup).toHaveBeenCalledWith({ name: 'Payments', description: '' }));
  });
});

describe('support groups without agents (issue 23)', () => {
  const groups = [
    { supportGroupId: 1, name: 'General Support', description: 'Anything', isActive: true, sortOrder: 1, memberCount: 2 },
    { supportGroupId: 2, name: 'Night Shift', description: 'Late exams', isActive: true, sortOrder: 2, memberCount: 0 },
    { supportGroupId: 3, name: 'Old Desk', description: 'Retired', isActive: false, sortOrder: 3, memberCount: 0 },
  ];

  it('should warn the support admin on the groups screen, naming only active groups without agents', async () => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportGroups.Manage', 'Permissions.SupportGroups.View'] });
    api.list.mockResolvedValue(groups);
    renderAt('/support-groups', <SupportGroupsPage />);
    const warning = await screen.findByTestId('no-agents-warning');
    expect(warning).toHaveTextContent('1 support group has no agents');
    expect(warning).toHaveTextContent('Tickets raised in Night Shift wait until an agent is added to the group.');
    expect(screen.getByTestId('no-agents-2')).toHaveTextContent('0 — no agents');
    expect(screen.queryByTestId('no-agents-3')).toBeNull();
  }, 20_000);

  it('should flag open tickets of such a group on the support admin’s desk', async () => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.Work', 'Permissions.SupportTickets.Administer'] });
    api.list.mockResolvedValue(groups);
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) =>
      page(
        [
          summary(1),
          summary(2, { supportGroupId: 2, supportGroupName: 'Night Shift' }),
          summary(3, { supportGroupId: 2, supportGroupName: 'Night Shift', statusId: 5, status: 'Resolved' }),
        ],
        query,
      ),
    );
    renderAt('/support', <SupportDeskPage />);
    const list = await screen.findByTestId('ticket-list');
    await waitFor(() => expect(within(list).getAllByTestId('no-agents-flag')).toHaveLength(1));
    expect(within(list).getByTestId('no-agents-flag').closest('tr')).toHaveTextContent('Ticket number 2');
    expect(screen.getByTestId('no-agents-warning')).toHaveTextContent('Night Shift');
  }, 20_000);
});
