import { assign, setup, type ActorRefFrom } from 'xstate';

/**
 * The on-screen calculator of the candidate screen, for papers that allow one (issue 19, EXAMS.md
 * §3 "calculator allowed", docs/decisions/0283). It works like the pocket calculator candidates
 * bring to paper exams and the basic one national CBT screens offer: immediate execution, left to
 * right (2 + 3 × 4 = 20, not 14), one pending operator, and a result that the next digit replaces.
 *
 * - `showing`: the display holds a value the calculator produced (0 at the start, a result, a
 *   square root, a percentage); the next digit starts a new number.
 * - `typing`: the candidate is typing a number; digits, the point and ⌫ edit it.
 * - `awaitingOperand`: an operator was just pressed; another operator replaces it.
 * - `error`: a division by zero or the root of a negative number; C, CE or a digit start again.
 *
 * It never touches the answers: what the candidate works out stays on this screen.
 */
export type CalculatorOperator = '+' | '-' | '*' | '/';

export interface CalculatorContext {
  /** What the display shows: a typed number ("0.50" while typing) or a formatted value. */
  display: string;
  /** The left-hand value of the pending operation. */
  accumulator: number | null;
  operator: CalculatorOperator | null;
}

export type CalculatorEvent =
  | { type: 'digit'; digit: string }
  | { type: 'point' }
  | { type: 'operator'; operator: CalculatorOperator }
  | { type: 'equals' }
  | { type: 'percent' }
  | { type: 'squareRoot' }
  | { type: 'negate' }
  | { type: 'backspace' }
  | { type: 'clear' }
  | { type: 'clearEntry' };

/** Digits a typed number may hold, as on a 12-digit desk calculator. */
export const CALCULATOR_MAX_DIGITS = 12;

/**
 * A value as the display shows it: 12 significant digits, so 0.1 + 0.2 shows 0.3 and 1 ÷ 3 shows
 * 0.333333333333; 2⁵⁰ shows 1.12589990684e+15; no "-0". Not finite is not shown (the caller goes to `error`).
 */
export function formatCalculatorValue(value: number): string {
  const rounded = Number(value.toPrecision(CALCULATOR_MAX_DIGITS));
  // String(-0) is "0", so "-0" is never shown without a check of its own.
  // Past 12 integer digits the display cannot hold the number: mantissa and exponent, as desk calculators do.
  return Math.abs(rounded) >= 10 ** CALCULATOR_MAX_DIGITS ? rounded.toExponential() : String(rounded);
}

function apply(left: number, operator: CalculatorOperator, right: number): number {
  if (operator === '+') return left + right;
  if (operator === '-') return left - right;
  if (operator === '*') return left * right;
  // x ÷ 0 is ±Infinity (0 ÷ 0 NaN): not finite, so the guards that ask before a result is shown go to `error`.
  return left / right;
}

const valueOf = (context: CalculatorContext) => Number(context.display);
/**
 * The pending operation worked out with the display as its right-hand side (or the display alone).
 * `accumulator` and `operator` are set together (chain) and cleared together (finish, showError,
 * clearAll; replaceOperator only changes a set operator): asking for one is asking for both.
 */
const pendingResult = (context: CalculatorContext) =>
  context.operator === null ? valueOf(context) : apply(context.accumulator!, context.operator, valueOf(context));
/** x % after + or − is that share of the left-hand value (200 + 10 % = 220); otherwise x ÷ 100. */
const percentOf = (context: CalculatorContext) =>
  context.operator === '+' || context.operator === '-' ? (context.accumulator! * valueOf(context)) / 100 : valueOf(context) / 100;
const digitCount = (display: string) => display.replace(/[^0-9]/g, '').length;
const cleared: CalculatorContext = { display: '0', accumulator: null, operator: null };

const calculatorSetup = setup({
  types: { context: {} as CalculatorContext, events: {} as CalculatorEvent },
  guards: {
    pendingFails: ({ context }) => !Number.isFinite(pendingResult(context)),
    /** "5 × =" squares: the pending operation takes the shown value as both sides (asked in `awaitingOperand`, after chain). */
    repeatFails: ({ context }) => !Number.isFinite(apply(context.accumulator!, context.operator!, context.accumulator!)),
    rootFails: ({ context }) => valueOf(context) < 0,
    hasRoom: ({ context }) => digitCount(context.display) < CALCULATOR_MAX_DIGITS,
    hasNoPoint: ({ context }) => !context.display.includes('.') && digitCount(context.display) < CALCULATOR_MAX_DIGITS,
  },
  actions: {
    startNumber: assign({ display: ({ event }) => (event.type === 'digit' ? event.digit : '0.') }),
    appendDigit: assign({
      display: ({ context, event }) => {
        const digit = (event as { digit: string }).digit;
        if (context.display === '0') return digit;
        if (context.display === '-0') return `-${digit}`;
        return context.display + digit;
      },
    }),
    appendPoint: assign({ display: ({ context }) => `${context.display}.` }),
    dropLastCharacter: assign({
      display: ({ context }) => {
        const shorter = context.display.slice(0, -1);
        return shorter === '' || shorter === '-' ? '0' : shorter;
      },
    }),
    negate: assign({
      display: ({ context }) => {
        if (context.display.startsWith('-')) return context.display.slice(1);
        // A typed zero without a point is only ever "0" (a digit replaces a leading 0); "0." becomes "-0." for -0.5.
        return context.display === '0' ? context.display : `-${context.display}`;
      },
    }),
    showNegated: assign({ display: ({ context }) => formatCalculatorValue(-valueOf(context)) }),
    /** An operator after a number: the pending operation is worked out and becomes the left side. */
    chain: assign(({ context, event }) => {
      const result = pendingResult(context);
      return { display: formatCalculatorValue(result), accumulator: result, operator: (event as { operator: CalculatorOperator }).operator };
    }),
    replaceOperator: assign({ operator: ({ event }) => (event as { operator: CalculatorOperator }).operator }),
    finish: assign(({ context }) => ({ display: formatCalculatorValue(pendingResult(context)), accumulator: null, operator: null })),
    finishRepeated: assign(({ context }) => ({
      display: formatCalculatorValue(apply(context.accumulator!, context.operator!, context.accumulator!)),
      accumulator: null,
      operator: null,
    })),
    showPercent: assign({ display: ({ context }) => formatCalculatorValue(percentOf(context)) }),
    showRoot: assign({ display: ({ context }) => formatCalculatorValue(Math.sqrt(valueOf(context))) }),
    clearAll: assign(() => cleared),
    clearEntry: assign({ display: '0' }),
    showError: assign({ display: 'Error', accumulator: null, operator: null }),
  },
});

/**
 * What the keys that work on the displayed number do, whether the calculator produced it or the
 * candidate typed it: an operator and = work out what is pending, % and √ change the number.
 */
const onANumber = {
  operator: [
    { guard: 'pendingFails', target: 'error', actions: 'showError' },
    { target: 'awaitingOperand', actions: 'chain' },
  ],
  equals: [
    { guard: 'pendingFails', target: 'error', actions: 'showError' },
    { target: 'showing', actions: 'finish' },
  ],
  percent: { target: 'showing', actions: 'showPercent' },
  squareRoot: [
    { guard: 'rootFails', target: 'error', actions: 'showError' },
    { target: 'showing', actions: 'showRoot' },
  ],
} as const;

export const calculatorMachine = calculatorSetup.createMachine({
  id: 'deliveryCalculator',
  context: cleared,
  initial: 'showing',
  on: {
    clear: { target: '.showing', actions: 'clearAll' },
  },
  states: {
    showing: {
      on: {
        digit: { target: 'typing', actions: 'startNumber' },
        point: { target: 'typing', actions: 'startNumber' },
        ...onANumber,
        negate: { target: 'showing', actions: 'showNegated' },
        clearEntry: { target: 'showing', actions: 'clearEntry' },
      },
    },
    typing: {
      on: {
        digit: { guard: 'hasRoom', target: 'typing', actions: 'appendDigit' },
        point: { guard: 'hasNoPoint', target: 'typing', actions: 'appendPoint' },
        backspace: { target: 'typing', actions: 'dropLastCharacter' },
        negate: { target: 'typing', actions: 'negate' },
        ...onANumber,
        clearEntry: { target: 'showing', actions: 'clearEntry' },
      },
    },
    awaitingOperand: {
      on: {
        digit: { target: 'typing', actions: 'startNumber' },
        point: { target: 'typing', actions: 'startNumber' },
        operator: { target: 'awaitingOperand', actions: 'replaceOperator' },
        equals: [
          { guard: 'repeatFails', target: 'error', actions: 'showError' },
          { target: 'showing', actions: 'finishRepeated' },
        ],
        percent: { target: 'showing', actions: 'showPercent' },
        squareRoot: [
          { guard: 'rootFails', target: 'error', actions: 'showError' },
          { target: 'showing', actions: 'showRoot' },
        ],
        negate: { target: 'showing', actions: 'showNegated' },
        clearEntry: { target: 'showing', actions: 'clearEntry' },
      },
    },
    error: {
      on: {
        digit: { target: 'typing', actions: ['clearAll', 'startNumber'] },
        point: { target: 'typing', actions: ['clearAll', 'startNumber'] },
        clearEntry: { target: 'showing', actions: 'clearAll' },
      },
    },
  },
});

export type CalculatorActor = ActorRefFrom<typeof calculatorMachine>;
