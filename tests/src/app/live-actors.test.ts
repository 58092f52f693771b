import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { snackbarMachine } from '#machines/snackbar.machine.ts';
import { LIVE_EVENT_LIMIT, liveActors, liveActorsVersion, registerLiveActor, subscribeLiveActors } from '#src/app/live-actors.ts';

const flush = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('live actors', () => {
  it('should list a registered actor, keep its events newest first and tell subscribers', async () => {
    const actor = createActor(snackbarMachine).start();
    let calls = 0;
    const unsubscribe = subscribeLiveActors(() => (calls += 1));
    const unregister = registerLiveActor('snackbar-under-test', snackbarMachine, actor);
    expect(calls).toBe(1);
    expect(liveActors().map((a) => [a.id, a.machineId])).toContainEqual(['snackbar-under-test', 'snackbar']);
    const before = liveActorsVersion();
    actor.send({ type: 'snackbar.open' });
    actor.send({ type: 'snackbar.close' });
    await flush();
    const entry = liveActors().find((a) => a.id === 'snackbar-under-test')!;
    expect(entry.events.map((e) => e.type)).toEqual(['snackbar.close', 'snackbar.open']);
    expect(liveActorsVersion()).toBeGreaterThan(before);
    expect(calls).toBeGreaterThanOrEqual(3);
    unregister({ keep: true });
    expect(liveActors().find((a) => a.id === 'snackbar-under-test')?.stopped).toBe(true);
    actor.send({ type: 'snackbar.open' });
    await flush();
    expect(liveActors().find((a) => a.id === 'snackbar-under-test')!.events).toHaveLength(2);
    unregister();
    expect(liveActors().some((a) => a.id === 'snackbar-under-test')).toBe(false);
    unsubscribe();
    actor.stop();
  });

  it('should keep the latest events only, and replace an actor registered again under the same id', async () => {
    const first = createActor(snackbarMachine).start();
    const second = createActor(snackbarMachine).start();
    const unregisterFirst = registerLiveActor('same-id', snackbarMachine, first);
    for (let i = 0; i < LIVE_EVENT_LIMIT + 5; i += 1) first.send({ type: 'snackbar.open' });
    await flush();
    expect(liveActors().find((a) => a.id === 'same-id')!.events).toHaveLength(LIVE_EVENT_LIMIT);
    const unregisterSecond = registerLiveActor('same-id', snackbarMachine, second);
    first.send({ type: 'snackbar.close' });
    await flush();
    const entry = liveActors().find((a) => a.id === 'same-id')!;
    expect(entry.actorRef).toBe(second);
    expect(entry.events).toEqual([]);
    // The replaced registration's unregister no longer removes the new one.
    unregisterFirst();
    expect(liveActors().find((a) => a.id === 'same-id')?.actorRef).toBe(second);
    unregisterSecond();
    first.stop();
    second.stop();
  });
});
