import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { calculatorMachine, formatCalculatorValue } from '#machines/delivery-calculator.machine.ts';
import { calculatorTestPaths } from '#machines/delivery-calculator.model.ts';
import { calculatorExpectation, freshCalculatorFacts } from '#tests/fixtures/expectations/delivery-calculator.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

/**
 * The candidate screen's calculator (issue 19, docs/decisions/0283): every generated path
 * replayed against a live actor, each step checked against the paper-tape calculator of
 * tests/fixtures/expectations/delivery-calculator.ts; the panel's own test replays a sample
 * through the screen.
 */
const paths = calculatorTestPaths();
const recorder = replayRecorder(calculatorMachine, 'machine', true);
afterAll(() => void recorder.write());

describe('the calculator machine', () => {
  it('should walk every generated path as the paper tape says', async () => {
    for (const path of paths)
      await recorder.run(path, () =>
        replayPath(path, {
          independent: new IndependentExpectation(calculatorExpectation, freshCalculatorFacts()),
          start: () => createActor(calculatorMachine).start(),
          expectSame: (live, model) => expect(live.value).toEqual(model.value),
        }),
      );
  });

  it('should have paths taking every rule of the table, and every state and transition', () => {
    expect(rulesNoPathTakes(calculatorExpectation, freshCalculatorFacts, paths)).toEqual([]);
    const report = reportMachineCoverage(calculatorMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    // The digit limit's refusal (12 digits typed) is no edge of the graph; the panel test types past it.
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });

  it('should show 12 significant digits and never -0', () => {
    expect([0.1 + 0.2, 1 / 3, -0, 2 ** 50, 1e21].map(formatCalculatorValue)).toEqual(['0.3', '0.333333333333', '0', '1.12589990684e+15', '1e+21']);
  });
});
