import { afterAll, beforeAll, expect, it } from 'vitest';
import { resultMachine, type ResultEvent } from '#machines/results/result.machine.ts';
import { resultModelInput, resultTestPaths } from '#machines/results/result.model.ts';
import { manualClock } from '#server/lib/clock.ts';
import { applyResultEvent, lockResult } from '#server/modules/results/results-service.ts';
import { IndependentExpectation } from '#tests/fixtures/expectations/expectation-table.ts';
import { resultExpectation, resultFacts } from '#tests/fixtures/expectations/result.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { call } from '../exams/workspace-kit.ts';
import { sendEvent } from '../tickets/ticket-events-http.ts';
import { examCall, resultsWorld, sitPaper, SITTING, type ResultsWorld } from './results-kit.ts';

/**
 * The result machine's model paths replayed against the server: each path starts from a fresh
 * submitted delivery (its result Provisional) and makes the request each party makes — the
 * moderator's moderate / withhold / release and the exam's publication, the candidate's
 * re-evaluation request a day after publication, the support desk resolving the linked
 * ticket. The system's own steps (answers waiting for marks, marks all in, rescoring) are
 * applied as the server applies them. The stored status must be what the independent table
 * (tests/fixtures/expectations/result.ts) expects; at each step an event that status does not
 * take is sent too and must answer 409 and change nothing.
 */
const clock = manualClock(new Date(SITTING.startsAtIso));
const DAY = 86_400_000;

describeEachDatabase(
  'result lifecycle over HTTP',
  (get) => {
    let world: ResultsWorld;
    let agent: TestUser;
    const recorder = replayRecorder(resultMachine, 'http', true);
    beforeAll(async () => {
      clock.set(new Date(SITTING.startsAtIso));
      world = await resultsWorld(get().app, get().db, { reevaluationDays: resultModelInput.reevaluationDays });
      const { rows } = await get().db.query<{ id: number }>(`select id from support_groups where name = 'Exam Administration' and tenant_id = 'root'`);
      agent = await createSignedInUser(get().app, { roles: ['SupportAgent'], groups: [rows[0].id] });
    });
    afterAll(() => void recorder.write());

    const status = async (id: number) => (await get().db.query<{ status: string }>(`select status from results where id = $1`, [id])).rows[0].status;

    async function send(id: number, candidate: TestUser, event: ResultEvent): Promise<number> {
      const { app, db } = get();
      switch (event.type) {
        case 'result.awaitMarking':
        case 'result.marked':
        case 'result.rescore':
          // The server's own steps (a mark awaited, the last mark in, a rescoring).
          await db.transaction(async (tx) => applyResultEvent(tx, (await lockResult(tx, id))!, { ...event, at: clock.now().toISOString() }, null));
          return 200;
        case 'result.publish':
          return (await examCall(app, world, world.moderator, 'POST', `/api/v1/exam/${world.examId}/results/publish`)).statusCode;
        case 'result.requestReevaluation':
          clock.advance(DAY);
          return (await call(app, candidate, 'POST', `/api/v1/result/mine/${id}/reevaluation`, { body: { items: [1], reason: 'Please look again' } }))
            .statusCode;
        case 'result.revise': {
          const { rows } = await db.query<{ ticketId: number }>(`select reevaluation_ticket_id::int as "ticketId" from results where id = $1`, [id]);
          const claimed = await sendEvent(app, agent, 'ticket.claim', rows[0].ticketId);
          const resolved = await sendEvent(app, agent, 'ticket.resolve', rows[0].ticketId);
          await expect.poll(() => status(id), { timeout: 5000 }).toBe('Revised');
          return Math.max(claimed.statusCode, resolved.statusCode);
        }
        default:
          return (
            await examCall(app, world, world.moderator, 'POST', `/api/v1/result/${id}/event`, {
              event: event.type,
              reason: 'reason' in event ? event.reason : 'x',
            })
          ).statusCode;
      }
    }

    /** Sent over HTTP at each step; the table says which statuses take them. */
    const probes: Array<{ type: 'result.release' | 'result.withhold'; takenIn: string[] }> = [
      { type: 'result.release', takenIn: ['Withheld'] },
      { type: 'result.withhold', takenIn: ['Provisional', 'Marking', 'Moderated', 'Published'] },
    ];

    const paths = resultTestPaths();
    it.each(paths.map((path) => [path.description, path] as const))('should walk %s with the status the table expects', (_d, path) =>
      recorder.run(path, async () => {
        const { app, db } = get();
        clock.set(new Date(SITTING.startsAtIso));
        const sat = await sitPaper(app, world, new Map<number, unknown>([[world.mcqVersions[0], 'A']]), 'Path');
        const { rows } = await db.query<{ id: number }>(`select id::int as id from results where delivery_id = $1`, [sat.deliveryId]);
        const id = rows[0].id;
        try {
          const table = new IndependentExpectation(resultExpectation, resultFacts(resultModelInput.reevaluationDays));
          expect(await status(id)).toBe(table.state);
          for (const step of path.steps) {
            if (step.event.type === 'xstate.init') continue;
            const event = step.event as ResultEvent;
            const before = table.state;
            const code = await send(id, sat.candidate, event);
            const expected = table.next({ ...event, at: clock.now().toISOString() } as ResultEvent);
            expect(code, `${event.type} from ${before}`).toBe(200 + (event.type === 'result.requestReevaluation' ? 1 : 0));
            expect(await status(id), `${event.type} from ${before}`).toBe(expected);

            const probe = probes.find((p) => !p.takenIn.includes(expected))!;
            const refused = await examCall(app, world, world.moderator, 'POST', `/api/v1/result/${id}/event`, { event: probe.type, reason: 'Probe' });
            expect(refused.statusCode, `${probe.type} from ${expected}: ${refused.body}`).toBe(409);
            expect(await status(id)).toBe(expected);
          }
        } finally {
          // Publication is per exam: the next path's publication must find only its own result.
          await db.query(`delete from results where id = $1`, [id]);
        }
      }),
    );
  },
  { deliveryClock: clock },
);
