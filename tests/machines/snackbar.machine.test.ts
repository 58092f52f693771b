import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { SNACKBAR_AUTO_HIDE_MS, SNACKBAR_ENTER_MS, SNACKBAR_EXIT_MS, initialSnackbarState, snackbarMachine } from '#machines/snackbar.machine.ts';
import { snackbarTestPaths } from '#machines/snackbar.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { snackbarExpectation } from '#tests/fixtures/expectations/snackbar.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

afterEach(() => {
  vi.useRealTimers();
});

function start() {
  vi.useFakeTimers();
  return createActor(snackbarMachine).start();
}

describe('snackbar machine', () => {
  it('should use the spec constants', () => {
    expect([SNACKBAR_AUTO_HIDE_MS, SNACKBAR_ENTER_MS, SNACKBAR_EXIT_MS]).toEqual([6000, 225, 195]);
  });

  it('should start closed with the defaults', () => {
    const actor = start();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context).toEqual({
      open: false,
      action: false,
      message: null,
      variant: 'default',
      alert: { color: 'primary', variant: 'filled' },
      transition: 'Fade',
      anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
      close: true,
      actionButton: false,
    });
  });

  it('should fill every missing field from the defaults when opened with a message only', () => {
    const actor = start();
    actor.send({ type: 'snackbar.open', options: { message: 'Saved', anchorOrigin: { vertical: 'top' }, alert: { color: 'error' } } });
    expect(actor.getSnapshot().value).toBe('opened');
    expect(actor.getSnapshot().context).toEqual({
      open: true,
      action: true,
      message: 'Saved',
      variant: 'default',
      alert: { color: 'error', variant: 'filled' },
      transition: 'Fade',
      anchorOrigin: { vertical: 'top', horizontal: 'right' },
      close: true,
      actionButton: false,
    });
  });

  it('should take defaults again on the next open instead of keeping the previous fields', () => {
    const actor = start();
    actor.send({ type: 'snackbar.open', options: { message: 'One', transition: 'Grow', actionButton: true } });
    actor.send({ type: 'snackbar.open' });
    expect(actor.getSnapshot().context).toMatchObject({ message: null, transition: 'Fade', actionButton: false });
  });

  it('should replace invalid fields with the defaults', () => {
    const actor = start();
    actor.send({
      type: 'snackbar.open',
      options: { variant: 'loud' as never, transition: 'Spin' as never, alert: { variant: 'neon' as never }, close: 'yes' as never },
    });
    expect(actor.getSnapshot().context).toMatchObject({ variant: 'default', transition: 'Fade', alert: { variant: 'filled' }, close: true });
  });

  it('should flip the action flag on each open', () => {
    const actor = start();
    const flags: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      actor.send({ type: 'snackbar.open' });
      flags.push(actor.getSnapshot().context.action);
    }
    expect(flags).toEqual([true, false, true]);
  });

  it('should close after 6000 ms, play the 195 ms exit, then be gone', async () => {
    const actor = start();
    actor.send({ type: 'snackbar.open' });
    await vi.advanceTimersByTimeAsync(5999);
    expect(actor.getSnapshot().value).toBe('opened');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('closing');
    expect(actor.getSnapshot().context.open).toBe(false);
    await vi.advanceTimersByTimeAsync(194);
    expect(actor.getSnapshot().value).toBe('closing');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('should restart the 6000 ms when opened again while shown', async () => {
    const actor = start();
    actor.send({ type: 'snackbar.open' });
    await vi.advanceTimersByTimeAsync(5000);
    actor.send({ type: 'snackbar.open', options: { message: 'Again' } });
    await vi.advanceTimersByTimeAsync(5999);
    expect(actor.getSnapshot().value).toBe('opened');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('closing');
  });

  it('should close on the close button', () => {
    const actor = start();
    actor.send({ type: 'snackbar.open' });
    actor.send({ type: 'snackbar.close' });
    expect(actor.getSnapshot().value).toBe('closing');
    expect(actor.getSnapshot().context.open).toBe(false);
  });

  it('should emit the action and close when the UNDO button is pressed', () => {
    const actor = start();
    const onAction = vi.fn();
    actor.on('snackbar.action', onAction);
    actor.send({ type: 'snackbar.open', options: { actionButton: true } });
    actor.send({ type: 'snackbar.action' });
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('closing');
  });

  it('should ignore close and action while closed', () => {
    const actor = start();
    const onAction = vi.fn();
    actor.on('snackbar.action', onAction);
    actor.send({ type: 'snackbar.close' });
    actor.send({ type: 'snackbar.action' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context).toEqual(initialSnackbarState);
    expect(onAction).not.toHaveBeenCalled();
  });
});

describe('snackbar open with a blank message', () => {
  // Mutation survivor: a message of only spaces must show the default message (spec §4), not an empty bar.
  it('should fall back to the default message for a blank one', () => {
    const actor = start();
    actor.send({ type: 'snackbar.open', options: { message: '   ' } });
    expect(actor.getSnapshot().context.message).toBeNull();
    actor.send({ type: 'snackbar.open', options: { message: ' Saved ' } });
    expect(actor.getSnapshot().context.message).toBe(' Saved ');
  });
});

describe('snackbar model', () => {
  const paths = snackbarTestPaths();

  const recorder = replayRecorder(snackbarMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s', (_description, path) =>
    recorder.run(path, async () => {
      let undoSignals = 0;
      const independent = new IndependentExpectation(snackbarExpectation, { opens: 0, undos: 0, lastOptions: undefined, undoSignals: () => undoSignals });
      await replayPath(path, {
        independent,
        start: () => {
          const actor = createActor(snackbarMachine);
          actor.on('snackbar.action', () => (undoSignals += 1));
          return actor.start();
        },
        delays: { autoHide: SNACKBAR_AUTO_HIDE_MS, exit: SNACKBAR_EXIT_MS },
        expectSame: (live, model) => {
          expect(live.value).toEqual(model.value);
          expect(live.context).toEqual(model.context);
        },
      });
    }),
  );

  it('should take every rule of the independent table on some path (a transition the machine lacks has no path)', () => {
    expect(rulesNoPathTakes(snackbarExpectation, () => ({ opens: 0, undos: 0, lastOptions: undefined, undoSignals: () => 0 }), paths as never)).toEqual([]);
  });

  it('should reach every state and transition of the snackbar', () => {
    const report = reportMachineCoverage(snackbarMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});
