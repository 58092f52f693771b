import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, EventObject } from 'xstate';
import { calculatorMachine } from '#machines/delivery-calculator.machine.ts';
import { calculatorTestPaths } from '#machines/delivery-calculator.model.ts';
import { computeCoverage, transitionsTakenBy } from '#machines/graph-coverage.ts';
import { liveActors } from '#src/app/live-actors.ts';
import { CalculatorPanel } from '#src/features/delivery/calculator-panel.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { calculatorExpectation, freshCalculatorFacts } from '#tests/fixtures/expectations/delivery-calculator.ts';
import { IndependentExpectation, sampleTakingEveryRule, stateKey } from '#tests/fixtures/expectations/expectation-table.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';

/**
 * The calculator panel of the candidate screen (issue 19, docs/decisions/0283): sums keyed in
 * with the mouse and the keyboard against results written by hand, the panel staying open, and
 * a sample of the machine's paths walked through the keypad in jsdom, every step checked against
 * the paper-tape calculator (tests/fixtures/expectations/delivery-calculator.ts).
 */
beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['delivery']);
});

async function openPanel() {
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <CalculatorPanel />
      <p>The question</p>
      <button type="button">Option A</button>
    </I18nextProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Calculator' }));
  const panel = await screen.findByTestId('calculator-panel');
  return { user, panel, display: () => within(panel).getByTestId('calculator-display').textContent };
}

/** A key's test id for a keypad symbol: the keys a person presses. */
const KEY: Record<string, string> = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide', '=': 'equals', '%': 'percent', '.': 'point' };
const KEY_NAMES: Record<string, string> = { '√': 'squareRoot', '±': 'negate', '⌫': 'backspace', C: 'clear', E: 'clearEntry' };
const press = (panel: HTMLElement, keys: string) => {
  for (const key of keys) fireEvent.click(within(panel).getByTestId(`calculator-key-${KEY_NAMES[key] ?? KEY[key] ?? key}`));
};

describe('the calculator panel', () => {
  // What a pocket calculator shows after these keys (E is CE); written by hand, not computed.
  const sums: Array<[string, string]> = [
    ['2+3*4=', '20'],
    ['1/3=', '0.333333333333'],
    ['.1+.2=', '0.3'],
    ['200+10%=', '220'],
    ['50*10%=', '5'],
    ['9√', '3'],
    ['5*=', '25'],
    ['7+*2=', '14'],
    ['7/0=', 'Error'],
    ['7/0=3+1=', '4'],
    ['9±√', 'Error'],
    ['12⌫⌫⌫', '0'],
    ['12±', '-12'],
    ['8+5E2=', '10'],
    ['8+5C', '0'],
    ['1234567890123', '123456789012'],
    ['1..5', '1.5'],
    ['6=+1=', '7'],
  ];
  it.each(sums)('should show what a pocket calculator shows after %s', async (keys, expected) => {
    const { panel, display } = await openPanel();
    press(panel, keys);
    expect(display()).toBe(expected);
  });

  it('should take the keyboard inside the panel only, and stay open on a click outside', async () => {
    const { user, panel, display } = await openPanel();
    await user.click(within(panel).getByTestId('calculator-key-1'));
    await user.keyboard('2*3=');
    expect(display()).toBe('36');
    await user.keyboard('{Backspace}{Delete}');
    expect(display()).toBe('0');
    // Enter on a focused key presses that key; off a key it is "=".
    await user.keyboard('9+');
    act(() => panel.focus());
    await user.keyboard('1{Enter}');
    expect(display()).toBe('10');
    await user.click(screen.getByText('The question'));
    await user.keyboard('5');
    expect(display(), 'typing outside the panel is not the calculator’s').toBe('10');
    expect(screen.getByTestId('calculator-panel')).toBeVisible();
    await user.click(within(panel).getByRole('button', { name: 'Close the calculator' }));
    await waitFor(() => expect(screen.queryByTestId('calculator-panel')).not.toBeVisible());
    expect(screen.getByRole('button', { name: 'Calculator' })).toHaveFocus();
  });

  it('should give focus back to its button on Escape, also after a click on the question', async () => {
    const { user, panel } = await openPanel();
    await user.click(screen.getByRole('button', { name: 'Option A' }));
    expect(screen.getByTestId('calculator-panel')).toBeVisible();
    await user.click(within(panel).getByTestId('calculator-key-7'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Calculator' })).toHaveFocus());
    expect(screen.queryByTestId('calculator-panel')).not.toBeVisible();
  });

  it('should name every key for a screen reader and show the pending operation', async () => {
    const { panel } = await openPanel();
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toEqual([
      'Close the calculator',
      'C, Clear all',
      'CE, Clear entry',
      'Delete the last digit',
      'Square root',
      '7',
      '8',
      '9',
      'Divided by',
      '4',
      '5',
      '6',
      'Times',
      '1',
      '2',
      '3',
      'Minus',
      'Change sign',
      '0',
      'Decimal point',
      'Plus',
      'Percent',
      'Equals',
    ]);
    press(panel, '12-');
    expect(within(panel).getByTestId('calculator-pending').textContent).toBe('12 −');
    expect(within(panel).getByRole('status', { hidden: true, name: 'Calculator display' }).textContent).toBe('12');
  });
});

// A sample of the paths that takes every rule of the table and every transition of the graph.
const paths = sampleTakingEveryRule(calculatorExpectation, freshCalculatorFacts, calculatorTestPaths(), (path) =>
  transitionsTakenBy(calculatorMachine, [path]),
);
const recorder = replayRecorder(calculatorMachine, 'jsdom', true);
afterAll(() => void recorder.write());

/** The keypad key a model event is. */
function keyOf(event: EventObject): string {
  const e = event as EventObject & { digit?: string; operator?: string };
  if (e.type === 'digit') return e.digit!;
  if (e.type === 'operator') return KEY[e.operator!];
  return e.type;
}

describe('calculator paths through the keypad (jsdom)', () => {
  it('should sample paths covering every transition', () => {
    const report = computeCoverage(calculatorMachine, paths);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
    expect(paths.length).toBeLessThan(120);
  });

  it('should walk the sample on the panel, each step as the paper tape says', async () => {
    for (const path of paths)
      await recorder.run(path, async () => {
        const { panel } = await openPanel();
        const actor = liveActors().find((a) => a.id === 'delivery-calculator' && !a.stopped)!.actorRef as AnyActorRef;
        const independent = new IndependentExpectation(calculatorExpectation, freshCalculatorFacts());
        const trail: string[] = [];
        for (const { event } of path.steps) {
          if (event.type !== 'xstate.init') {
            trail.push(keyOf(event));
            act(() => void fireEvent.click(within(panel).getByTestId(`calculator-key-${keyOf(event)}`)));
          }
          independent.check(event, actor.getSnapshot(), trail.join(' '));
          // The screen shows the tape's display (the error in words) and its pending operator.
          const tape = independent.facts;
          expect(panel.getAttribute('data-calculator-state')).toBe(stateKey(independent.state));
          expect(within(panel).getByTestId('calculator-display').textContent, trail.join(' ')).toBe(tape.display);
          expect(within(panel).getByTestId('calculator-pending').textContent === '', trail.join(' ')).toBe(tape.operator === null);
        }
        cleanup();
      });
  });
});
