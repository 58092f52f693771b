import { beforeAll, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { mailsTo } from '#tests/server/identity/identity-test-kit.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { call } from '../exams/workspace-kit.ts';
import { mcq } from '../papers/papers-kit.ts';
import { sendEvent } from '../tickets/ticket-events-http.ts';
import { examCall, resultOf, resultsWorld, sitPaper, SITTING, type ResultsWorld } from './results-kit.ts';

/**
 * Issue 20 over HTTP: a submitted delivery is scored (negative marks, the essay waits for a
 * person), marked from an anonymised queue, moderated, published per exam with the candidate
 * mailed, seen with its answer sheet, questioned within the window (a support ticket linked to
 * the result) and revised when the desk resolves the ticket. Marks are worked out by hand from
 * the world: three single-choice items at 4 marks (+4 / −1), an essay at 10; 22 in all.
 */
const clock = manualClock(new Date(SITTING.startsAtIso));
const DAY = 86_400_000;

interface Task {
  taskId: number;
  scriptId: string;
  itemNumber: number;
  round: number;
  maxMarks: number;
  stem: string;
  rubric: string | null;
  answer: string;
  earlierMarks: Array<{ round: number; marks: number }>;
}

describeEachDatabase(
  'results, marking and re-evaluation',
  (get) => {
    let world: ResultsWorld;
    beforeAll(async () => {
      clock.set(new Date(SITTING.startsAtIso));
      world = await resultsWorld(get().app, get().db);
    });

    const queue = async (user: TestUser, extra = '') => {
      const res = await examCall(get().app, world, user, 'GET', `/api/v1/marking/queue?examId=${world.examId}${extra}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Task[];
    };
    const mark = (user: TestUser, taskId: number, marks: number, comment = 'Per the rubric') =>
      examCall(get().app, world, user, 'POST', `/api/v1/marking/task/${taskId}`, { marks, comment });

    it('should score on submission, mark the essay blind, moderate, publish, show the answer sheet and revise after re-evaluation', async () => {
      const { app, db } = get();
      clock.set(new Date(SITTING.startsAtIso));
      const [m0, m1] = world.mcqVersions;
      const essayText = 'Water evaporates, condenses into clouds and falls as rain.';
      const sat = await sitPaper(
        app,
        world,
        new Map<number, unknown>([
          [m0, 'A'],
          [m1, 'B'],
          [world.essayVersion, essayText],
        ]),
        'Asha',
      );
      const essayNumber = sat.numberOf.get(world.essayVersion)!;

      // +4 − 1 + 0 (unanswered); the essay waits.
      const scored = await resultOf(db, sat.deliveryId);
      expect(scored).toMatchObject({ status: 'Marking', total: 3 });

      // Nothing for the candidate before publication; publishing leaves results in marking alone.
      expect((await call(app, sat.candidate, 'GET', '/api/v1/result/mine')).json()).toEqual([]);
      expect((await call(app, sat.candidate, 'GET', `/api/v1/result/mine/${scored.id}`)).statusCode).toBe(404);
      const early = await examCall(app, world, world.manager, 'POST', `/api/v1/exam/${world.examId}/results/publish`);
      expect(early.json()).toMatchObject({ published: 0, stillMarking: 1 });

      // The queue is anonymised: the opaque script id, never the name or roll number.
      const tasks = await queue(world.evaluatorA);
      const task = tasks.find((t) => t.scriptId === scored.scriptId)!;
      expect(task).toMatchObject({ itemNumber: essayNumber, round: 1, maxMarks: 10, answer: essayText, stem: 'Describe the water cycle.' });
      expect(task.rubric).toContain('Evaporation 4');
      const { rows: reg } = await db.query<{ roll: string }>(
        `select r.roll_number as roll from deliveries d join registrations r on r.id = d.registration_id where d.id = $1`,
        [sat.deliveryId],
      );
      expect(JSON.stringify(tasks)).not.toContain('Asha');
      expect(JSON.stringify(tasks)).not.toContain(reg[0].roll);
      // Neither candidates nor other staff reach the queue.
      expect((await examCall(app, world, world.setter, 'GET', `/api/v1/marking/queue?examId=${world.examId}`)).statusCode).toBe(403);

      expect((await mark(world.evaluatorA, task.taskId, 11)).statusCode).toBe(400);
      const given = await mark(world.evaluatorA, task.taskId, 7);
      expect(given.json()).toMatchObject({ state: 'final', resultStatus: 'Provisional' });
      expect((await mark(world.evaluatorA, task.taskId, 6)).statusCode).toBe(409);
      expect(await resultOf(db, sat.deliveryId)).toMatchObject({ status: 'Provisional', total: 10 });

      // Progress and moderation: evaluator A +1 → the essay 8, total 11, Moderated.
      const progress = (await examCall(app, world, world.manager, 'GET', `/api/v1/marking/progress?examId=${world.examId}`)).json() as {
        byEvaluator: Array<{ markerId: string; marked: number; mean: number }>;
        byItem: Array<{ itemNumber: number; marked: number; total: number }>;
      };
      expect(progress.byEvaluator).toEqual([expect.objectContaining({ markerId: world.evaluatorA.id, marked: 1, mean: 0.7 })]);
      expect(progress.byItem).toContainEqual(expect.objectContaining({ itemNumber: essayNumber, marked: 1, total: 1 }));
      const noReason = await examCall(app, world, world.moderator, 'POST', '/api/v1/marking/moderate', {
        examId: world.examId,
        markerId: world.evaluatorA.id,
        kind: 'shift',
        value: 1,
        reason: ' ',
      });
      expect(noReason.statusCode).toBe(400);
      expect(
        (
          await examCall(app, world, world.manager, 'POST', '/api/v1/marking/moderate', {
            examId: world.examId,
            markerId: world.evaluatorA.id,
            kind: 'shift',
            value: 1,
            reason: 'x',
          })
        ).statusCode,
      ).toBe(403);
      const moderated = await examCall(app, world, world.moderator, 'POST', '/api/v1/marking/moderate', {
        examId: world.examId,
        markerId: world.evaluatorA.id,
        kind: 'shift',
        value: 1,
        reason: 'Evaluator A marks a mark below the others',
      });
      expect(moderated.json()).toEqual({ adjusted: 1, results: 1 });
      expect(await resultOf(db, sat.deliveryId)).toMatchObject({ status: 'Moderated', total: 11, percent: 50, grade: 'B', passed: true });

      // Publish: Published, the candidate mailed in their language, the domain event emitted.
      const announced: unknown[] = [];
      const listener = (e: unknown) => announced.push(e);
      app.events.on('result.published', listener);
      const published = await examCall(app, world, world.moderator, 'POST', `/api/v1/exam/${world.examId}/results/publish`);
      app.events.off('result.published', listener);
      expect(published.json()).toEqual({ published: 1, stillMarking: 0, withheld: 0 });
      expect(announced).toEqual([expect.objectContaining({ resultId: scored.id, candidateId: sat.candidate.id, examId: world.examId })]);
      const [mail] = await mailsTo(app, sat.candidate.email);
      expect(mail.subject).toMatch(/^Your result for .+ is published$/);
      expect(mail.text).toContain('http://exam-portal.test/results');
      // …and told in the notification center, linked to the result (issue 21).
      const told = (await call(app, sat.candidate, 'POST', '/api/v1/notification/search', { body: {} })).json() as {
        data: Array<{ kind: string; link: string | null }>;
      };
      expect(told.data).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'results.published', link: `/results?result=${scored.id}` })]));

      // The candidate's result and answer sheet: each item, their answer, the key and the marks.
      const mine = (await call(app, sat.candidate, 'GET', '/api/v1/result/mine')).json() as Array<{ resultId: number; total: number; grade: string }>;
      expect(mine).toEqual([expect.objectContaining({ resultId: scored.id, total: 11, maxTotal: 22, grade: 'B', passed: true, status: 'Published' })]);
      const detail = (await call(app, sat.candidate, 'GET', `/api/v1/result/mine/${scored.id}`)).json() as {
        answerSheet: Array<{ number: number; response: unknown; marks: number; maxMarks: number; content: { correct?: string } }>;
        sections: Array<{ title: string; total: number; maxTotal: number }>;
        reevaluation: { canRequest: boolean; openUntil: string };
      };
      expect(detail.sections).toEqual([
        expect.objectContaining({ title: 'A: Choice', total: 3, maxTotal: 12 }),
        expect.objectContaining({ title: 'B: Essay', total: 8, maxTotal: 10 }),
      ]);
      const sheet = new Map(detail.answerSheet.map((i) => [i.number, i]));
      expect(sheet.get(sat.numberOf.get(m0)!)).toMatchObject({ response: 'A', marks: 4, maxMarks: 4, content: { correct: 'A' } });
      expect(sheet.get(sat.numberOf.get(m1)!)).toMatchObject({ response: 'B', marks: -1 });
      expect(sheet.get(essayNumber)).toMatchObject({ response: essayText, marks: 8, maxMarks: 10 });
      expect(detail.reevaluation).toEqual(expect.objectContaining({ canRequest: true, openUntil: new Date(clock.now().getTime() + 7 * DAY).toISOString() }));
      // Nobody else's.
      const stranger = await createSignedInUser(app, { roles: ['Candidate'] });
      expect((await call(app, stranger, 'GET', `/api/v1/result/mine/${scored.id}`)).statusCode).toBe(404);

      // Re-evaluation: a question not on the paper is refused; then a ticket linked to the result.
      const bad = await call(app, sat.candidate, 'POST', `/api/v1/result/mine/${scored.id}/reevaluation`, { body: { items: [99], reason: 'Please' } });
      expect(bad.statusCode).toBe(400);
      clock.advance(DAY);
      const asked = await call(app, sat.candidate, 'POST', `/api/v1/result/mine/${scored.id}/reevaluation`, {
        body: { items: [essayNumber], reason: 'I described precipitation too.' },
      });
      expect(asked.statusCode, asked.body).toBe(201);
      const reeval = asked.json() as { reevaluation: { ticketId: number; items: number[]; canRequest: boolean }; status: string };
      expect(reeval.status).toBe('ReevaluationRequested');
      expect(reeval.reevaluation).toMatchObject({ items: [essayNumber], canRequest: false });
      const { rows: tickets } = await db.query<{ title: string; description: string; requester: string; group: string }>(
        `select t.title, t.description, t.requester_id as requester, g.name as group from support_tickets t join support_groups g on g.id = t.support_group_id where t.id = $1`,
        [reeval.reevaluation.ticketId],
      );
      expect(tickets[0]).toMatchObject({ requester: sat.candidate.id, group: 'Exam Administration' });
      expect(tickets[0].title).toContain(`question ${essayNumber}`);
      expect(tickets[0].description).toContain(`Result ${scored.id}`);
      expect(tickets[0].description).toContain('I described precipitation too.');
      const again = await call(app, sat.candidate, 'POST', `/api/v1/result/mine/${scored.id}/reevaluation`, {
        body: { items: [essayNumber], reason: 'Again' },
      });
      expect(again.statusCode).toBe(409);

      // The moderator looks again (round 3, with the earlier mark), the desk resolves: Revised.
      const fresh = (await queue(world.moderator)).find((t) => t.scriptId === scored.scriptId && t.round === 3)!;
      expect(fresh.earlierMarks).toEqual([expect.objectContaining({ round: 1, marks: 8 })]);
      expect((await mark(world.moderator, fresh.taskId, 9.5, 'Precipitation is described')).json()).toMatchObject({ resultStatus: 'ReevaluationRequested' });
      const agent = await createSignedInUser(app, {
        roles: ['SupportAgent'],
        groups: [(await db.query<{ id: number }>(`select id from support_groups where name = 'Exam Administration' and tenant_id = 'root'`)).rows[0].id],
      });
      expect((await sendEvent(app, agent, 'ticket.claim', reeval.reevaluation.ticketId)).statusCode).toBe(200);
      expect((await sendEvent(app, agent, 'ticket.resolve', reeval.reevaluation.ticketId)).statusCode).toBe(200);
      await expect.poll(async () => (await resultOf(db, sat.deliveryId)).status, { timeout: 5000 }).toBe('Revised');
      expect(await resultOf(db, sat.deliveryId)).toMatchObject({ total: 12.5 });
      const revised = (await call(app, sat.candidate, 'GET', `/api/v1/result/mine/${scored.id}`)).json() as {
        status: string;
        history: Array<{ event: string; details: { before?: { total: number }; after?: { total: number } } }>;
      };
      expect(revised.status).toBe('Revised');
      expect(revised.history.map((h) => h.event)).toEqual(['result.publish', 'result.requestReevaluation', 'result.reevaluated', 'result.revise']);
      expect(revised.history[2].details).toMatchObject({ before: { total: 11 }, after: { total: 12.5 } });
      const outcome = (await call(app, sat.candidate, 'POST', '/api/v1/notification/search', { body: {} })).json() as { data: Array<{ kind: string }> };
      expect(outcome.data.map((n) => n.kind)).toContain('reevaluation.outcome');
    });

    it('should send two marks further apart than the threshold to the moderator, blind and independent', async () => {
      const { app, db } = get();
      await db.query(`update exams set result_settings = result_settings || '{"doubleMarkPercent": 100}'::jsonb where id = $1`, [world.examId]);
      clock.set(new Date(SITTING.startsAtIso));
      const sat = await sitPaper(app, world, new Map<number, unknown>([[world.essayVersion, 'A long answer about clouds.']]), 'Bilal');
      const { scriptId } = await resultOf(db, sat.deliveryId);
      const first = (await queue(world.evaluatorA)).filter((t) => t.scriptId === scriptId);
      expect(first.map((t) => t.round).sort()).toEqual([1, 2]);
      const r1 = first.find((t) => t.round === 1)!;
      expect((await mark(world.evaluatorA, r1.taskId, 8)).json()).toMatchObject({ state: 'awaiting', resultStatus: 'Marking' });
      // Evaluator A no longer sees the second round of the answer they marked, and may not take it.
      const left = (await queue(world.evaluatorA)).filter((t) => t.scriptId === scriptId);
      expect(left).toEqual([]);
      const r2 = (await queue(world.evaluatorB)).find((t) => t.scriptId === scriptId && t.round === 2)!;
      expect((await mark(world.evaluatorA, r2.taskId, 8)).statusCode).toBe(409);
      expect(r2.earlierMarks).toEqual([]);
      // 8 against 3: over the threshold of 2 → the third marker.
      expect((await mark(world.evaluatorB, r2.taskId, 3)).json()).toMatchObject({ state: 'thirdMarker', resultStatus: 'Marking' });
      expect((await queue(world.evaluatorB)).filter((t) => t.scriptId === scriptId)).toEqual([]);
      const third = (await queue(world.moderator)).find((t) => t.scriptId === scriptId)!;
      expect(third.round).toBe(3);
      expect(third.earlierMarks.map((m) => m.marks)).toEqual([8, 3]);
      expect((await mark(world.evaluatorB, third.taskId, 5)).statusCode).toBe(403);
      expect((await mark(world.moderator, third.taskId, 6)).json()).toMatchObject({ state: 'final', resultStatus: 'Provisional' });
      // Three unanswered choice items (0) + the third mark.
      expect(await resultOf(db, sat.deliveryId)).toMatchObject({ status: 'Provisional', total: 6 });
      await db.query(`update exams set result_settings = result_settings || '{"doubleMarkPercent": 0}'::jsonb where id = $1`, [world.examId]);
    });

    it('should rescore every affected result on an answer-key correction and keep before and after in the audit', async () => {
      const { app, db } = get();
      clock.set(new Date(SITTING.startsAtIso));
      const [, m1, m2] = world.mcqVersions;
      const right = await sitPaper(
        app,
        world,
        new Map<number, unknown>([
          [m1, 'A'],
          [m2, 'A'],
        ]),
        'Chitra',
      );
      const wrong = await sitPaper(app, world, new Map<number, unknown>([[m1, 'B']]), 'Dev');
      expect(await resultOf(db, right.deliveryId)).toMatchObject({ total: 8, status: 'Provisional' });
      expect(await resultOf(db, wrong.deliveryId)).toMatchObject({ total: -1, status: 'Provisional' });
      const corrected = { ...mcq(1, ['en']), correct: 'B' };
      const noReason = await examCall(app, world, world.manager, 'POST', `/api/v1/paper/${world.paperId}/answer-key`, {
        versionId: String(m1),
        content: corrected,
        reason: '   ',
      });
      expect(noReason.statusCode).toBe(400);
      const otherKind = await examCall(app, world, world.manager, 'POST', `/api/v1/paper/${world.paperId}/answer-key`, {
        versionId: String(m1),
        content: { kind: 'trueFalse', variants: { en: { stem: '<p>x</p>' } }, marking: { correct: 1, wrong: 0, unanswered: 0 }, media: [], correct: true },
        reason: 'x',
      });
      expect(otherKind.statusCode).toBe(400);
      const res = await examCall(app, world, world.manager, 'POST', `/api/v1/paper/${world.paperId}/answer-key`, {
        versionId: String(m1),
        content: corrected,
        reason: 'Option B is the right answer: the key was entered wrongly',
      });
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json() as {
        rescored: number;
        changed: number;
        differences: Array<{ resultId: number; before: { total: number }; after: { total: number }; items: unknown[] }>;
      };
      const rightId = (await resultOf(db, right.deliveryId)).id;
      const wrongId = (await resultOf(db, wrong.deliveryId)).id;
      const diff = new Map(answer.differences.map((d) => [d.resultId, d]));
      expect(diff.get(rightId)).toMatchObject({ before: { total: 8 }, after: { total: 3 }, items: [{ number: right.numberOf.get(m1), before: 4, after: -1 }] });
      expect(diff.get(wrongId)).toMatchObject({
        before: { total: -1 },
        after: { total: 4 },
        items: [{ number: wrong.numberOf.get(m1), before: -1, after: 4 }],
      });
      expect(await resultOf(db, right.deliveryId)).toMatchObject({ total: 3 });
      expect(await resultOf(db, wrong.deliveryId)).toMatchObject({ total: 4 });
      // The audit: the correction with its reason and differences, and each result's history.
      const { rows: audit } = await db.query<{ reason: string; details: { changed: number } }>(
        `select reason, details from answer_key_corrections where paper_id = $1`,
        [world.paperId],
      );
      expect(audit).toEqual([expect.objectContaining({ reason: 'Option B is the right answer: the key was entered wrongly' })]);
      expect(audit[0].details.changed).toBe(answer.changed);
      const { rows: history } = await db.query<{ reason: string; details: { before: { total: number }; after: { total: number } } }>(
        `select reason, details from result_history where result_id = $1 and event = 'result.keyCorrected'`,
        [wrongId],
      );
      expect(history).toEqual([
        expect.objectContaining({
          reason: 'Option B is the right answer: the key was entered wrongly',
          details: expect.objectContaining({ before: expect.objectContaining({ total: -1 }), after: expect.objectContaining({ total: 4 }) }),
        }),
      ]);
      // Put the key back for the other tests.
      await db.query(`delete from answer_key_corrections where paper_id = $1`, [world.paperId]);
    });

    it('should refuse a result event the machine does not take with 409 and change nothing', async () => {
      const { app, db } = get();
      clock.set(new Date(SITTING.startsAtIso));
      const sat = await sitPaper(app, world, new Map<number, unknown>([[world.mcqVersions[0], 'A']]), 'Esha');
      const { id } = await resultOf(db, sat.deliveryId);
      const release = await examCall(app, world, world.manager, 'POST', `/api/v1/result/${id}/event`, { event: 'result.release', reason: 'Nothing held' });
      expect(release.statusCode).toBe(409);
      expect((await resultOf(db, sat.deliveryId)).status).toBe('Provisional');
      const blank = await examCall(app, world, world.manager, 'POST', `/api/v1/result/${id}/event`, { event: 'result.withhold', reason: ' ' });
      expect(blank.statusCode).toBe(400);
      const withheld = await examCall(app, world, world.manager, 'POST', `/api/v1/result/${id}/event`, {
        event: 'result.withhold',
        reason: 'Malpractice report',
      });
      expect(withheld.json()).toMatchObject({ status: 'Withheld' });
      const outsider = await examCall(app, world, world.evaluatorA, 'POST', `/api/v1/result/${id}/event`, { event: 'result.release', reason: 'x' });
      expect(outsider.statusCode).toBe(403);
      expect((await resultOf(db, sat.deliveryId)).status).toBe('Withheld');
    });
  },
  { deliveryClock: clock },
);
