import { describe, expect, it } from 'vitest';
import { createActor, type EventObject } from 'xstate';
import { createDashboardCardMachine } from '#machines/dashboard-card.machine.ts';
import { IndependentExpectation, stateKey } from '#tests/fixtures/expectations/expectation-table.ts';
import { dashboardCardExpectation, freshDashboardCardFacts } from '#tests/fixtures/expectations/dashboard-card.ts';

/** A card whose every load waits until the test settles it. */
function card() {
  const pending: Array<{ resolve: (v: string) => void; reject: (e: unknown) => void }> = [];
  let loads = 0;
  const actor = createActor(createDashboardCardMachine<string>(), {
    input: {
      load: () =>
        new Promise<string>((resolve, reject) => {
          loads += 1;
          pending.push({ resolve, reject });
        }),
    },
  }).start();
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return {
    actor,
    loads: () => loads,
    state: () => stateKey(actor.getSnapshot().value),
    async step(event: 'resolve' | 'reject' | 'card.retry' | 'card.refresh', value = 'data') {
      if (event === 'resolve') pending.shift()!.resolve(value);
      else if (event === 'reject') pending.shift()!.reject(new Error('Network Error'));
      else actor.send({ type: event });
      await flush();
    },
    /** The newest load answers, after every older one still pending (superseded) has answered too. */
    async answer(event: 'resolve' | 'reject', value: string) {
      while (pending.length > 1) pending.shift()!.resolve('superseded');
      await this.step(event, value);
    },
  };
}

/** Walks to `from` along rules, then checks one step. */
const pathTo: Record<string, Array<'resolve' | 'reject' | 'card.retry' | 'card.refresh'>> = {
  loading: [],
  failed: ['reject'],
  'ready.shown': ['resolve'],
  'ready.refreshing': ['resolve', 'card.refresh'],
};

/** The table's name of a step: an invoked load's answer, or a sent event. */
const tableName = { resolve: 'done.load', reject: 'error.load', 'card.retry': 'card.retry', 'card.refresh': 'card.refresh' } as const;
type Step = keyof typeof tableName;
const stepOf = (event: string) => (Object.keys(tableName) as Step[]).find((step) => tableName[step] === event)!;

describe('the dashboard card loader', () => {
  it.each(dashboardCardExpectation.rules.map((r) => [r.from as string, r.event, r.to] as const))('from %s, %s → %s', async (from, event, to) => {
    const c = card();
    for (const step of pathTo[from]) await c.step(step);
    expect(c.state()).toBe(from);
    await c.step(stepOf(event));
    expect(c.state()).toBe(to);
  });

  it('should agree with the table, invariants included, along a walk through every state', async () => {
    const c = card();
    const walk = new IndependentExpectation(dashboardCardExpectation, freshDashboardCardFacts());
    const steps: Step[] = [
      'reject',
      'card.refresh',
      'card.retry',
      'resolve',
      'card.retry',
      'card.refresh',
      'card.refresh',
      'reject',
      'card.refresh',
      'resolve',
    ];
    walk.check({ type: 'xstate.init' }, c.actor.getSnapshot(), 'start');
    for (const [index, step] of steps.entries()) {
      // The newest load answers; an older one still pending was superseded and is dropped.
      const output = `answer ${index}`;
      if (step === 'resolve' || step === 'reject') await c.answer(step, output);
      else await c.step(step);
      walk.check({ type: tableName[step], output } as EventObject, c.actor.getSnapshot(), steps.slice(0, index + 1).join(' → '));
    }
    expect(c.loads()).toBe(walk.facts.loadsAsked);
  });

  it('should keep the shown data through a failed refresh, marked stale, and take new data on the next', async () => {
    const c = card();
    await c.step('resolve', 'first');
    await c.step('card.refresh');
    expect(c.actor.getSnapshot().context.data).toBe('first');
    await c.step('reject');
    expect(c.actor.getSnapshot().context).toMatchObject({ data: 'first', stale: true });
    await c.step('card.refresh');
    await c.step('resolve', 'second');
    expect(c.actor.getSnapshot().context).toMatchObject({ data: 'second', stale: false });
  });

  it('should load again on retry and keep the reason of a failure', async () => {
    const c = card();
    await c.step('reject');
    expect(String(c.actor.getSnapshot().context.error)).toContain('Network Error');
    await c.step('card.retry');
    expect(c.loads()).toBe(2);
    await c.step('resolve', 'ok');
    expect(c.actor.getSnapshot().context).toMatchObject({ data: 'ok', error: null });
  });
  it('should not mark data as stale before a refresh has failed', async () => {
    const c = card();
    expect(c.actor.getSnapshot().context.stale).toBe(false);
    await c.step('reject');
    expect(c.actor.getSnapshot().context).toMatchObject({ data: null, stale: false });
    await c.step('card.retry');
    await c.step('resolve', 'first');
    expect(c.actor.getSnapshot().context).toMatchObject({ data: 'first', stale: false });
  });

  it('should load again when a push arrives mid-refresh, and show only the newer answer', async () => {
    const c = card();
    await c.step('resolve', 'first');
    await c.step('card.refresh');
    await c.step('card.refresh');
    expect(c.loads()).toBe(3);
    // The answer to the superseded refresh comes back first: it is dropped.
    await c.step('resolve', 'superseded');
    expect(c.state()).toBe('ready.refreshing');
    expect(c.actor.getSnapshot().context.data).toBe('first');
    await c.step('resolve', 'newest');
    expect(c.state()).toBe('ready.shown');
    expect(c.actor.getSnapshot().context.data).toBe('newest');
  });
});
