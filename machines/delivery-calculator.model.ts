import { calculatorMachine, type CalculatorEvent } from './delivery-calculator.machine.ts';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';

/**
 * The calculator's model: a digit, the point, an operator that can fail (÷) and one
 * that cannot (+), and every other key. Nodes are told apart by state, pending operator and the
 * display's sign (zero, negative, positive), so the graph stays
 * finite while a division by zero and the root of a negative number are both reachable.
 */
export const calculatorModelEvents: CalculatorEvent[] = [
  { type: 'digit', digit: '7' },
  { type: 'point' },
  { type: 'operator', operator: '+' },
  { type: 'operator', operator: '/' },
  { type: 'equals' },
  { type: 'percent' },
  { type: 'squareRoot' },
  { type: 'negate' },
  { type: 'backspace' },
  { type: 'clear' },
  { type: 'clearEntry' },
];

function displayShape(display: string): string {
  if (display === 'Error') return 'error';
  return Number(display) === 0 ? 'zero' : display.startsWith('-') ? 'negative' : 'positive';
}

export function calculatorModel() {
  return createMachineTestModel(calculatorMachine, {
    events: () => calculatorModelEvents,
    exhaustive: true,
    serializeState: (s) => JSON.stringify([s.value, s.context.operator, displayShape(s.context.display)]),
    serializeEvent: (e) => (e.type === 'digit' ? `digit ${e.digit}` : e.type === 'operator' ? `operator ${e.operator}` : e.type),
  });
}

export function calculatorTestPaths() {
  return transitionCoveringPaths(calculatorModel());
}
