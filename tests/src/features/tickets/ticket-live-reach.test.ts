import { describe, expect, it, vi } from 'vitest';
import type { TicketDetail } from '#src/features/tickets/api/tickets-api.ts';

vi.mock('#src/features/tickets/api/tickets-api.ts', () => ({ ticketsApi: {}, supportGroupsApi: {} }));
const { stillInReach } = await import('#src/features/tickets/ticket-page.tsx');

const ticket = (viewer: Partial<TicketDetail['viewer']>) =>
  ({ supportGroupId: 2, viewer: { requester: false, agent: false, assignee: false, supportAdmin: false, ...viewer } }) as TicketDetail;

describe('stillInReach (a pushed ticket change reloads the open ticket only while the viewer may still see it)', () => {
  it('should keep requesters and support admins, whatever moved', () => {
    expect(stillInReach(ticket({ requester: true }), { supportGroupId: 3, assigneeId: null }, 'me')).toBe(true);
    expect(stillInReach(ticket({ supportAdmin: true }), { supportGroupId: 3, assigneeId: 'other' }, 'me')).toBe(true);
  });

  it('should keep an agent while the ticket stays in their group, or when it is assigned to them', () => {
    expect(stillInReach(ticket({ agent: true, assignee: true }), { supportGroupId: 2, assigneeId: 'other' }, 'me')).toBe(true);
    expect(stillInReach(ticket({ agent: true }), { supportGroupId: 3, assigneeId: 'me' }, 'me')).toBe(true);
    expect(stillInReach(ticket({ agent: true, assignee: true }), { supportGroupId: 3, assigneeId: null }, 'me')).toBe(false);
    expect(stillInReach(ticket({ assignee: true }), { supportGroupId: 2, assigneeId: 'other' }, 'me')).toBe(false);
    expect(stillInReach(ticket({ assignee: true }), { supportGroupId: 2, assigneeId: 'me' }, null)).toBe(false);
  });
});
