import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { decidePaper, paperActions, paperFlowMachine, paperStatusNames, type PaperEvent, type PaperParty } from '#machines/papers/paper-flow.machine.ts';
import { paperFlowTestPaths, paperModelEvents } from '#machines/papers/paper-flow.model.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { paperFlowExpectation, paperStatusesTakingEvent } from '#tests/fixtures/expectations/paper-flow.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from '../support/replay-path.ts';

const parties: PaperParty[] = ['paperSetter', 'moderator', 'projectAdmin'];
const eventBy = (type: PaperEvent['type'], party: PaperParty) => ({ ...paperModelEvents.find((e) => e.type === type)!, by: { [party]: true } }) as PaperEvent;

describe('paper-flow machine', () => {
  it('should list the four statuses of EXAMS.md in order and start in Draft', () => {
    expect(paperStatusNames).toEqual(['Draft', 'Review', 'Locked', 'Published']);
    expect(paperFlowMachine.config.initial).toBe('Draft');
  });

  it('should decide every (status, event, party) exactly as the independent table says', () => {
    const wrong: string[] = [];
    for (const from of paperStatusNames) {
      for (const type of Object.keys(paperStatusesTakingEvent) as PaperEvent['type'][]) {
        for (const party of parties) {
          const event = eventBy(type, party);
          const walk = new IndependentExpectation(paperFlowExpectation, { trail: [] });
          walk.state = from;
          const before = walk.state;
          const expected = walk.next(event);
          const takenByTable = walk.taken.size > 0 ? expected : undefined;
          const decision = decidePaper(from, event);
          const got = decision.accepted ? decision.to : undefined;
          if (got !== takenByTable) wrong.push(`${type} from ${before} by ${party}: ${got} (expected ${takenByTable})`);
          if (!decision.accepted) {
            const reason = paperStatusesTakingEvent[type].includes(from) ? 'role' : 'status';
            if (decision.reason !== reason) wrong.push(`${type} from ${from} by ${party}: reason ${decision.reason}, expected ${reason}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should refuse a lock with blueprint problems, an unlock or request for changes without a reason, and publishing without sets', () => {
    expect(decidePaper('Review', { type: 'paper.lock', by: { moderator: true }, problems: 2 })).toEqual({
      accepted: false,
      reason: 'blueprint',
      from: 'Review',
    });
    expect(decidePaper('Locked', { type: 'paper.unlock', by: { projectAdmin: true }, reason: '  ' })).toEqual({
      accepted: false,
      reason: 'fields',
      from: 'Locked',
    });
    expect(decidePaper('Review', { type: 'paper.requestChanges', by: { moderator: true }, reason: '' })).toMatchObject({ reason: 'fields' });
    expect(decidePaper('Locked', { type: 'paper.publish', by: { moderator: true }, sets: 0 })).toEqual({ accepted: false, reason: 'sets', from: 'Locked' });
    expect(decidePaper('Locked', { type: 'paper.unlock', by: { moderator: true, paperSetter: true }, reason: 'typo' })).toMatchObject({ reason: 'role' });
  });

  it('should refuse in so many words an event the status does not take or the caller may not send', () => {
    expect(decidePaper('Draft', { type: 'paper.lock', by: { moderator: true }, problems: 0 })).toEqual({ accepted: false, reason: 'status', from: 'Draft' });
    expect(decidePaper('Draft', { type: 'paper.submit', by: { moderator: true } })).toEqual({ accepted: false, reason: 'role', from: 'Draft' });
  });

  it('should refuse a reason that is not text', () => {
    const notText = { type: 'paper.unlock', by: { projectAdmin: true }, reason: 42 } as unknown as PaperEvent;
    expect(decidePaper('Locked', notText)).toEqual({ accepted: false, reason: 'fields', from: 'Locked' });
  });

  it('should offer each party only its own actions', () => {
    expect(paperActions('Draft', { paperSetter: true })).toEqual(['paper.edit', 'paper.submit']);
    expect(paperActions('Draft', { moderator: true })).toEqual([]);
    expect(paperActions('Review', { moderator: true })).toEqual(['paper.requestChanges', 'paper.lock']);
    expect(paperActions('Locked', { paperSetter: true })).toEqual(['paper.generateSets']);
    expect(paperActions('Locked', { projectAdmin: true })).toEqual(['paper.generateSets', 'paper.unlock', 'paper.publish']);
    expect(
      paperStatusNames.flatMap((s) => paperActions(s, { projectAdmin: true, moderator: true, paperSetter: true })).filter((t) => t === 'paper.edit'),
    ).toEqual(['paper.edit']);
    expect(paperActions('Published', { projectAdmin: true })).toEqual([]);
  });

  const paths = paperFlowTestPaths();
  const recorder = replayRecorder(paperFlowMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s as the independent table expects', (_d, path) =>
    recorder.run(path, () =>
      replayPath(path, {
        independent: new IndependentExpectation(paperFlowExpectation, { trail: [] }),
        start: () => createActor(paperFlowMachine).start(),
        expectSame: (live, model) => expect(live.value).toEqual(model.value),
      }),
    ),
  );

  it('should take every rule of the independent table on some path, and cover every transition', () => {
    expect(rulesNoPathTakes(paperFlowExpectation, () => ({ trail: [] }), paths as never)).toEqual([]);
    const report = reportMachineCoverage(paperFlowMachine, paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
    expect(report.states.covered).toEqual(report.states.total);
  });
});
