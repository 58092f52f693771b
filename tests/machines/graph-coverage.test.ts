import { createTestModel } from '@xstate/graph';
import { createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { computeCoverage, coverageLine } from '#machines/graph-coverage.ts';

const machine = createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: { on: { 'door.open': 'opened', 'door.lock': 'locked' } },
    locked: { on: { 'door.unlock': 'closed', 'door.kick': { target: 'broken', guard: () => false } } },
    opened: {
      initial: 'still',
      states: { still: { on: { 'door.swing': 'swinging' } }, swinging: {} },
      on: { 'door.close': 'closed' },
    },
    broken: {},
  },
});

describe('computeCoverage', () => {
  it('should count the states and transitions the paths walk, and leave out what they cannot reach', () => {
    const paths = createTestModel(machine).getShortestPaths();
    const report = computeCoverage(machine, paths);
    expect(report.states.total).toEqual(['door.closed', 'door.locked', 'door.opened', 'door.opened.still', 'door.opened.swinging', 'door.broken']);
    expect(report.states.covered).toEqual(['door.closed', 'door.locked', 'door.opened', 'door.opened.still', 'door.opened.swinging']);
    expect(report.transitions.total).toHaveLength(6);
    expect(report.transitions.covered.sort()).toEqual([
      'door.closed --door.lock--> door.locked',
      'door.closed --door.open--> door.opened',
      'door.locked --door.unlock--> door.closed',
      'door.opened --door.close--> door.closed',
      'door.opened.still --door.swing--> door.opened.swinging',
    ]);
    expect(coverageLine(report)).toBe('door: states 5/6 (83%), transitions 5/6 (83%)');
  });

  it('should count the way a machine leaves the state it starts in at once, for the branch its first snapshot shows', () => {
    const choosing = createMachine({
      types: {} as { context: { fresh: boolean }; input: { fresh: boolean } },
      id: 'start',
      initial: 'choosing',
      context: ({ input }) => input,
      states: {
        choosing: { always: [{ guard: ({ context }) => context.fresh, target: 'editing' }, { target: 'loading' }] },
        loading: {},
        editing: {},
      },
    });
    const fresh = createTestModel(choosing, { input: { fresh: true } } as never).getShortestPaths();
    const report = computeCoverage(choosing, fresh);
    expect(report.states.covered.sort()).toEqual(['start.choosing', 'start.editing']);
    expect(report.transitions.covered).toEqual(['start.choosing --(always)--> start.editing']);
    const both = computeCoverage(choosing, [...fresh, ...createTestModel(choosing, { input: { fresh: false } } as never).getShortestPaths()]);
    expect(both.transitions.covered.sort()).toEqual(both.transitions.total.sort());
  });

  it('should count nothing beyond the initial state for a path with no events', () => {
    const report = computeCoverage(machine, [{ state: machine.resolveState({ value: 'closed' }), steps: [] }]);
    expect(report.states.covered).toEqual(['door.closed']);
    expect(report.transitions.covered).toEqual([]);
  });
});
