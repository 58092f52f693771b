import { createMachineTestModel, transitionCoveringPaths } from '../test-model.ts';
import { resultMachine, type ResultEvent, type ResultSnapshot } from './result.machine.ts';

/** The model's exam: results may be questioned for 7 days after publication. */
export const resultModelInput = { reevaluationDays: 7 } as const;
/** The model's clock: every event happens at this time, except the re-evaluation request (a day after publication). */
export const RESULT_MODEL_AT = '2027-04-01T06:30:00.000Z';

const DAY = 86_400_000;

/**
 * The result's model events: the system's marking and rescoring, a moderator's moderation,
 * publication and withholding, the candidate's re-evaluation request a day after publication
 * (inside the 7-day window) and the agent's revision once the ticket is resolved.
 */
export function resultModelEvents(snapshot: ResultSnapshot): ResultEvent[] {
  const at = RESULT_MODEL_AT;
  const system = { system: true };
  const moderator = { moderator: true };
  const published = snapshot.context.publishedAt;
  const events: ResultEvent[] = [
    { type: 'result.awaitMarking', by: system, at },
    { type: 'result.marked', by: system, at },
    { type: 'result.rescore', by: system, at },
    { type: 'result.moderate', by: moderator, reason: 'Evaluator 2 marked 1 mark harsher than the others', at },
    { type: 'result.publish', by: moderator, at },
    {
      type: 'result.requestReevaluation',
      by: { candidate: true },
      items: [3],
      at: published ? new Date(Date.parse(published) + DAY).toISOString() : at,
    },
    { type: 'result.revise', by: { agent: true }, at },
    { type: 'result.withhold', by: moderator, reason: 'Malpractice report under review', at },
    { type: 'result.release', by: moderator, reason: 'Report dismissed', at },
  ];
  return events.filter((event) => snapshot.can(event));
}

export function resultModel() {
  return createMachineTestModel(resultMachine, {
    input: resultModelInput,
    events: resultModelEvents,
    exhaustive: true,
    // A node is the status: only Published takes the window's request, and it always has publishedAt.
    serializeState: (s) => JSON.stringify(s.value),
    serializeEvent: (e) => e.type,
  });
}

export function resultTestPaths() {
  return transitionCoveringPaths(resultModel());
}
