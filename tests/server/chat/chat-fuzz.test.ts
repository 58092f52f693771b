import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture } from '../tickets/fixture.ts';

/** SECURITY.md "Input and files": generated bodies to every chat and hub route, zero 5xx. */
describeEachDatabase('chat and hub routes under generated input', (get) => {
  let user: TestUser;
  let ticketId: number;
  beforeAll(async () => {
    const { app } = get();
    const f = await ticketsFixture(app);
    user = await createSignedInUser(app, { roles: ['Candidate'] });
    ticketId = (await raiseTicket(app, user, { supportGroupId: f.groups.general })).ticketId;
  });

  describe('POST /api/supportchat and friends', () => {
    it('should never answer 5xx, whatever body or query is sent', async () => {
      const { app } = get();
      const routes = [
        { method: 'POST' as const, url: '/api/supportchat' },
        { method: 'POST' as const, url: '/api/supportchat/chatdetails' },
        { method: 'POST' as const, url: '/api/supportchat/markread' },
        { method: 'POST' as const, url: '/api/supportchat/unreadcounts' },
        { method: 'GET' as const, url: '/api/hubs/notifications/missed' },
        { method: 'GET' as const, url: '/api/hubs/notifications' },
      ];
      const value = fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.uuid(),
        fc.integer(),
        fc.constant(ticketId),
        fc.constant(Number.MAX_SAFE_INTEGER + 2),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 4 }),
        fc.record({ keyword: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null)) }),
      );
      const fields = [
        'ticketId',
        'supportTicketId',
        'message',
        'messageId',
        'toUserId',
        'keyword',
        'advancedSearch',
        'pageNumber',
        'pageSize',
        'orderBy',
        'beforeSeq',
        'seq',
        'ticketIds',
        'after',
        'limit',
      ];
      const record = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 6 });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), fc.oneof(record, fc.anything()), record, async (route, body, query) => {
          const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
          const res = await app.inject({
            method: route.method,
            url: `${route.url}?${search}`,
            headers: { ...as(user), 'content-type': 'application/json' },
            ...(route.method === 'POST' ? { payload: JSON.stringify(body) ?? 'null' } : {}),
          });
          expect(res.statusCode, `${route.method} ${route.url} answered ${res.statusCode}: ${res.body}`).toBeLessThan(500);
        }),
        { numRuns: 300 },
      );
    });
  });
});
