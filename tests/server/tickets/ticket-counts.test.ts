import { beforeAll, expect, it } from 'vitest';
import { compactTicketCounts } from '#server/modules/tickets/tickets-repository.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from './fixture.ts';
import { sendEvent } from './ticket-events-http.ts';

/**
 * The kept per-(group, status) counts (docs/decisions/0008) always equal counting the rows:
 * after creates, transitions, reassignments, bulk statements, deletes, and compactions that
 * run while tickets change.
 */
describeEachDatabase('kept ticket counts', (get) => {
  let f: TicketsFixture;
  beforeAll(async () => {
    f = await ticketsFixture(get().app);
  });

  async function truth() {
    const { rows } = await get().db.query<{ support_group_id: number; status_id: number; n: number }>(
      `select support_group_id, status_id, count(*)::int as n from support_tickets where tenant_id = 'root' group by 1, 2`,
    );
    return rows;
  }

  async function searchTotal(body: Record<string, unknown>) {
    const res = await get().app.inject({
      method: 'POST',
      url: '/api/v1/supportticketadmin/searchbyadmin',
      headers: as(f.supportAdmin),
      payload: { pageNumber: 1, pageSize: 5, ...body },
    });
    expect(res.statusCode).toBe(200);
    return res.json().totalCount as number;
  }

  /** Every search the kept counts answer gives what counting the rows gives. */
  async function expectCountsMatch() {
    const rows = await truth();
    const sum = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).reduce((n, r) => n + r.n, 0);
    expect(await searchTotal({})).toBe(sum(() => true));
    for (const statusId of [1, 2, 3, 4, 5, 6, 7]) expect(await searchTotal({ statusId }), `status ${statusId}`).toBe(sum((r) => r.status_id === statusId));
    for (const supportGroupId of Object.values(f.groups)) {
      expect(await searchTotal({ supportGroupId }), `group ${supportGroupId}`).toBe(sum((r) => r.support_group_id === supportGroupId));
      expect(await searchTotal({ supportGroupId, statusId: 2 })).toBe(sum((r) => r.support_group_id === supportGroupId && r.status_id === 2));
    }
    const counts = await get().app.inject({ method: 'POST', url: '/api/v1/supportticketstatus/countbyadmin', headers: as(f.supportAdmin), payload: {} });
    expect(counts.statusCode).toBe(200);
    const { total, byStatus } = counts.json() as { total: number; byStatus: Array<{ statusId: number; count: number }> };
    expect(total).toBe(sum(() => true));
    expect(byStatus).toHaveLength(7);
    for (const entry of byStatus) expect(entry.count, `countbyadmin status ${entry.statusId}`).toBe(sum((r) => r.status_id === entry.statusId));
  }

  it('should count what the rows say after creates, transitions and reassignments', async () => {
    const { app } = get();
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const group = i % 3 === 0 ? f.groups.technical : f.groups.general;
      ids.push(
        (await raiseTicket(app, f.requester, { supportGroupId: group, title: `Count check ${i}`, description: 'Counting tickets per status.' })).ticketId,
      );
    }
    await expectCountsMatch();
    for (const id of ids.slice(0, 8)) await sendEvent(app, f.supportAdmin, 'ticket.claim', id);
    for (const id of ids.slice(0, 3)) await sendEvent(app, f.supportAdmin, 'ticket.hold', id);
    for (const id of ids.slice(3, 5)) await sendEvent(app, f.supportAdmin, 'ticket.resolve', id);
    await sendEvent(app, f.requester, 'ticket.cancel', ids[9]);
    await sendEvent(app, f.supportAdmin, 'ticket.reassign', ids[10], { toSupportGroupId: f.groups.exams });
    await sendEvent(app, f.supportAdmin, 'ticket.escalate', ids[6], { targetSupportGroupId: f.groups.accounts });
    await expectCountsMatch();
  });

  it('should stay exact through bulk statements, deletes and compaction', async () => {
    const { db } = get();
    await db.query(`update support_tickets set status_id = 3 where tenant_id = 'root' and status_id = 2`);
    await db.query(`update support_tickets set title = title || ' (edited)' where tenant_id = 'root'`);
    await expectCountsMatch();
    await compactTicketCounts(db);
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from support_ticket_count_deltas`);
    // One row per (tenant, group, status) that holds tickets.
    expect(rows[0].n).toBe((await truth()).length);
    await expectCountsMatch();
    await db.query(
      `delete from support_tickets where id = (select max(id) from support_tickets where parent_ticket_id is null and id not in (select parent_ticket_id from support_tickets where parent_ticket_id is not null))`,
    );
    await expectCountsMatch();
  });

  it('should stay exact when compactions run while tickets change', async () => {
    const { app, db } = get();
    const writes = Array.from({ length: 10 }, (_, i) =>
      raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.general, title: `Concurrent ${i}`, description: 'Raised during compaction.' }).then((t) =>
        sendEvent(app, f.agentA, 'ticket.claim', t.ticketId),
      ),
    );
    const compactions = Array.from({ length: 5 }, () => compactTicketCounts(db));
    await Promise.all([...writes, ...compactions]);
    await expectCountsMatch();
    await compactTicketCounts(db);
    await expectCountsMatch();
  });

  it('should answer keyword totals that follow every write, edits included', async () => {
    const { app, db } = get();
    const keyword = 'zephyrlantern';
    const totalFor = () => searchTotal({ keyword });
    const rowsFor = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from support_tickets where tenant_id = 'root' and search @@ websearch_to_tsquery('english', $1)`,
          [keyword],
        )
      ).rows[0].n;
    expect(await totalFor()).toBe(0);
    expect(await totalFor()).toBe(0);
    const first = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: `The ${keyword} screen`, description: 'It flickers.' });
    expect(await totalFor()).toBe(1);
    const second = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Another screen', description: 'It flickers too.' });
    expect(await totalFor()).toBe(1);
    // An edit that changes no status or group still changes what the keyword finds.
    const edit = await app.inject({
      method: 'PUT',
      url: `/api/v1/supportticket?ticketId=${second.ticketId}`,
      headers: as(f.supportAdmin),
      payload: { title: `Another ${keyword} screen` },
    });
    expect(edit.statusCode).toBe(200);
    expect(await totalFor()).toBe(2);
    await db.query(`update support_tickets set title = 'Renamed', description = 'Nothing to find' where id = $1`, [first.ticketId]);
    expect(await totalFor()).toBe(1);
    await compactTicketCounts(db);
    expect(await totalFor()).toBe(await rowsFor());
    expect(await searchTotal({ keyword, statusId: 1 })).toBe(1);
  });
});
