import { describe, expect, it } from 'vitest';
import { ticketLifecycleMachine, ticketStatusNames } from '#machines/ticket-lifecycle.machine.ts';
import { diagramModel, guardName, stateIds } from '#src/features/machines/diagram-model.ts';
import { toMermaid } from '#src/features/machines/mermaid.ts';
import { fixtureMachine } from '#tests/fixtures/fixture-machine.ts';

describe('diagramModel', () => {
  it('should draw the fixture machine as its definition says: nesting, parallel regions, initial and final states', () => {
    const model = diagramModel(fixtureMachine());
    const summary = model.states.map((s) => `${s.id} ${s.type}${s.region ? ' region' : ''} initial=${s.initialId ?? '-'}`);
    expect(summary).toEqual([
      'fixture compound initial=fixture.idle',
      'fixture.idle atomic initial=-',
      'fixture.running parallel initial=-',
      'fixture.running.engine compound region initial=fixture.running.engine.warming',
      'fixture.running.engine.warming atomic initial=-',
      'fixture.running.engine.hot atomic initial=-',
      'fixture.running.radio compound region initial=fixture.running.radio.off',
      'fixture.running.radio.off atomic initial=-',
      'fixture.done final initial=-',
    ]);
    const running = model.states.find((s) => s.id === 'fixture.running')!;
    expect(running.entry).toEqual(['log']);
    expect(model.states.find((s) => s.id === 'fixture.running.radio.off')!.invokes).toEqual(['worker']);
    expect(model.states.find((s) => s.id === 'fixture.idle')!.tags).toEqual(['resting']);
  });

  it('should label transitions with event, guard and actions, and delayed ones with their delay', () => {
    const labels = diagramModel(fixtureMachine()).transitions.map((t) => `${t.sourceId} → ${t.targetIds.join(',')}: ${t.label}`);
    expect(labels).toEqual([
      'fixture.idle → fixture.running: go [and(isReady, hasCount)] / log, count',
      'fixture.idle → fixture.running: go [isReady]',
      'fixture.running → fixture.done: stop / log',
      'fixture.running.engine.warming → fixture.running.engine.hot: after 500 ms',
      'fixture.running.engine.hot → fixture.running.engine.warming: after patience = 3000 ms',
    ]);
  });

  it('should keep targetless transitions on their state and key every transition as graph-coverage does', () => {
    const model = diagramModel(fixtureMachine());
    const root = model.states[0];
    expect(root.internal.map((t) => t.label)).toEqual(['tick / count']);
    expect(root.internal[0].key).toBe('fixture --tick--> fixture');
    expect(model.transitions[2].key).toBe('fixture.running --stop--> fixture.done');
    expect(stateIds(model)).toHaveLength(8);
  });

  it('should follow a change of the definition with no other edit', () => {
    const before = diagramModel(fixtureMachine());
    const after = diagramModel(fixtureMachine({ withReview: true }));
    const ids = (m: typeof before) => m.states.map((s) => s.id);
    expect(ids(after).filter((id) => !ids(before).includes(id))).toEqual(['fixture.reviewing']);
    const added = after.transitions.filter((t) => !before.transitions.some((b) => b.key === t.key)).map((t) => t.key);
    expect(added).toEqual(['fixture.idle --review--> fixture.reviewing', 'fixture.reviewing --stop--> fixture.done']);
    expect(toMermaid(after)).toContain('fixture_idle --> fixture_reviewing : review');
    expect(toMermaid(before)).not.toContain('reviewing');
  });

  it('should show all seven ticket statuses, Cancelled final', () => {
    const model = diagramModel(ticketLifecycleMachine);
    expect(model.states.slice(1).map((s) => s.key)).toEqual(ticketStatusNames);
    expect(model.states.find((s) => s.key === 'Cancelled')!.type).toBe('final');
    expect(model.transitions.filter((t) => t.sourceId === 'ticketLifecycle.Closed').map((t) => t.label)).toEqual([
      'ticket.reopen [and(isPermitted, isWithinReopenWindow)] / clearClosedAt',
    ]);
  });

  it('should name guards written in every form', () => {
    expect(guardName(undefined)).toBeNull();
    expect(guardName('isReady')).toBe('isReady');
    expect(guardName({ type: 'isConflict', params: {} })).toBe('isConflict');
    expect(guardName(() => true)).toBe('inline');
  });
});

describe('toMermaid', () => {
  it('should write a stateDiagram-v2 with composite states, regions, initial and final markers', () => {
    expect(toMermaid(diagramModel(fixtureMachine()))).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> fixture_idle',
        '  state "idle" as fixture_idle',
        '  state "running" as fixture_running',
        '  fixture_running : entry / log',
        '  state fixture_running {',
        '    state "engine" as fixture_running_engine',
        '    state fixture_running_engine {',
        '      [*] --> fixture_running_engine_warming',
        '      state "warming" as fixture_running_engine_warming',
        '      state "hot" as fixture_running_engine_hot',
        '      fixture_running_engine_warming --> fixture_running_engine_hot : after 500 ms',
        '      fixture_running_engine_hot --> fixture_running_engine_warming : after patience = 3000 ms',
        '    }',
        '    --',
        '    state "radio" as fixture_running_radio',
        '    state fixture_running_radio {',
        '      [*] --> fixture_running_radio_off',
        '      state "off" as fixture_running_radio_off',
        '      fixture_running_radio_off : invoke worker',
        '    }',
        '  }',
        '  state "done" as fixture_done',
        '  fixture_done --> [*]',
        '  fixture_idle --> fixture_running : go [and(isReady, hasCount)] / log, count',
        '  fixture_idle --> fixture_running : go [isReady]',
        '  fixture_running --> fixture_done : stop / log',
        '  note right of fixture_idle : fixture - tick / count',
        '',
      ].join('\n'),
    );
  });
});
