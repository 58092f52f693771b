import { useEffect, useId, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Popover as ArkPopover } from '@ark-ui/react/popover';
import { Portal } from '@ark-ui/react/portal';
import { useActorRef, useSelector } from '@xstate/react';
import { css, cx } from '#styled-system/css';
import { calculatorMachine, type CalculatorEvent, type CalculatorOperator } from '#machines/delivery-calculator.machine.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Icon } from '#src/components/ui/icons.tsx';
import { popoverRecipe } from '#src/components/ui/popover.tsx';

/**
 * The on-screen calculator of a paper that allows one (issue 19, docs/decisions/0283): a button
 * in the candidate's bar opens a panel that stays open while the candidate reads and answers
 * (a click on the question does not close it; Escape and the close button do, and give focus
 * back to the button). Its logic is the calculator machine; what it works out is never saved.
 */
const SYMBOL: Record<CalculatorOperator, string> = { '+': '+', '-': '−', '*': '×', '/': '÷' };
const OPERATOR_KEY: Record<CalculatorOperator, 'add' | 'subtract' | 'multiply' | 'divide'> = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide' };

/** The keypad, row by row: what each key sends, what it shows and its spoken name. */
type Key = { event: CalculatorEvent; label: string; name?: string; wide?: boolean; tone?: 'operator' | 'equals' };
const op = (operator: CalculatorOperator): Key => ({
  event: { type: 'operator', operator },
  label: SYMBOL[operator],
  name: OPERATOR_KEY[operator],
  tone: 'operator',
});
const digit = (d: string): Key => ({ event: { type: 'digit', digit: d }, label: d });
const KEYPAD: Key[] = [
  { event: { type: 'clear' }, label: 'C', name: 'clear' },
  { event: { type: 'clearEntry' }, label: 'CE', name: 'clearEntry' },
  { event: { type: 'backspace' }, label: '⌫', name: 'backspace' },
  { event: { type: 'squareRoot' }, label: '√', name: 'squareRoot' },
  digit('7'),
  digit('8'),
  digit('9'),
  op('/'),
  digit('4'),
  digit('5'),
  digit('6'),
  op('*'),
  digit('1'),
  digit('2'),
  digit('3'),
  op('-'),
  { event: { type: 'negate' }, label: '±', name: 'negate' },
  digit('0'),
  { event: { type: 'point' }, label: '.', name: 'point' },
  op('+'),
  { event: { type: 'percent' }, label: '%', name: 'percent' },
  { event: { type: 'equals' }, label: '=', name: 'equals', wide: true, tone: 'equals' },
];

/** The physical keyboard's keys (on the panel only, so typing an answer is never taken). */
export function calculatorEventOfKey(key: string, onButton: boolean): CalculatorEvent | null {
  if (/^[0-9]$/.test(key)) return { type: 'digit', digit: key };
  if (key === '.' || key === ',') return { type: 'point' };
  if (key === '+' || key === '-' || key === '*' || key === '/') return { type: 'operator', operator: key };
  if (key === 'x' || key === 'X') return { type: 'operator', operator: '*' };
  if (key === '=' || (key === 'Enter' && !onButton)) return { type: 'equals' };
  if (key === '%') return { type: 'percent' };
  if (key === 'Backspace') return { type: 'backspace' };
  if (key === 'Delete') return { type: 'clearEntry' };
  return null;
}

const classes = popoverRecipe();
const panel = css({ width: '17rem', maxWidth: 'calc(100vw - 2rem)' });
const screen = css({
  display: 'grid',
  justifyItems: 'end',
  gap: '0.5',
  p: '2',
  mb: '2',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.muted',
  fontVariantNumeric: 'tabular-nums',
  minHeight: '4.5rem',
});
const pad = css({ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: '1.5' });

function Keypad({ send }: { send: (event: CalculatorEvent) => void }) {
  const { t } = useTranslation('delivery');
  return (
    <div className={pad} role="group" aria-label={t('calculator.title')}>
      {KEYPAD.map((key) => (
        <Button
          key={key.name ?? key.label}
          type="button"
          size="sm"
          variant={key.tone === 'equals' ? 'solid' : 'outline'}
          className={cx(
            css({ fontSize: 'md', minHeight: '10' }),
            key.tone === 'operator' && css({ fontWeight: 'bold' }),
            key.wide && css({ gridColumn: 'span 3' }),
          )}
          // A key showing letters (C, CE) keeps them in its name, so a voice user can say what they see (WCAG 2.5.3).
          aria-label={key.name ? (/[A-Z]/.test(key.label) ? `${key.label}, ${t(`calculator.key.${key.name}`)}` : t(`calculator.key.${key.name}`)) : undefined}
          data-testid={`calculator-key-${key.name ?? key.label}`}
          onClick={() => send(key.event)}
        >
          {key.label}
        </Button>
      ))}
    </div>
  );
}

export function CalculatorPanel() {
  const { t } = useTranslation('delivery');
  const titleId = useId();
  const calculator = useActorRef(calculatorMachine);
  useEffect(() => registerLiveActor('delivery-calculator', calculatorMachine, calculator), [calculator]);
  const state = useSelector(calculator, (s) => s.value);
  const display = useSelector(calculator, (s) => s.context.display);
  const operator = useSelector(calculator, (s) => s.context.operator);
  const accumulator = useSelector(calculator, (s) => s.context.accumulator);
  const send = (event: CalculatorEvent) => calculator.send(event);
  const triggerId = useId();
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Ark gives focus back to the button on close, except after a click outside that the panel
    // ignored (it stays open by design): that click leaves a "do not restore" behind for the
    // next Escape. So the focus goes back here, before Ark closes the panel.
    if (e.key === 'Escape') document.getElementById(triggerId)?.focus({ preventScroll: true });
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const event = calculatorEventOfKey(e.key, (e.target as HTMLElement).tagName === 'BUTTON');
    if (!event) return;
    e.preventDefault();
    send(event);
  };

  return (
    <ArkPopover.Root
      lazyMount
      portalled
      modal={false}
      closeOnInteractOutside={false}
      positioning={{ placement: 'bottom-end' }}
      ids={{ title: titleId, trigger: triggerId }}
    >
      <ArkPopover.Trigger asChild>
        <Button size="sm" variant="outline" data-testid="calculator-open">
          <Icon name="calculate" size={18} />
          {t('calculator.open')}
        </Button>
      </ArkPopover.Trigger>
      <Portal>
        <ArkPopover.Positioner className={classes.positioner}>
          <ArkPopover.Content
            className={cx(classes.content, panel)}
            aria-labelledby={titleId}
            data-testid="calculator-panel"
            data-calculator-state={String(state)}
            onKeyDown={onKeyDown}
          >
            <div className={classes.title}>
              <ArkPopover.Title>{t('calculator.title')}</ArkPopover.Title>
              <ArkPopover.CloseTrigger className={classes.close} aria-label={t('calculator.close')}>
                <Icon name="close" size={16} />
              </ArkPopover.CloseTrigger>
            </div>
            <div className={screen}>
              <span className={css({ fontSize: 'xs', color: 'fg.muted', minHeight: '4' })} data-testid="calculator-pending">
                {operator !== null && accumulator !== null ? t('calculator.pending', { value: String(accumulator), operator: SYMBOL[operator] }) : ''}
              </span>
              <output
                aria-label={t('calculator.display')}
                aria-live="polite"
                className={css({ fontSize: '2xl', fontWeight: 'semibold', overflowWrap: 'anywhere', textAlign: 'end' })}
                data-testid="calculator-display"
              >
                {state === 'error' ? t('calculator.error') : display}
              </output>
            </div>
            <Keypad send={send} />
            <p className={css({ mt: '2', fontSize: 'xs', color: 'fg.muted' })}>{t('calculator.hint')}</p>
          </ArkPopover.Content>
        </ArkPopover.Positioner>
      </Portal>
    </ArkPopover.Root>
  );
}
