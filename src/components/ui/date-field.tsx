import { useId } from 'react';
import { DatePicker, parseDate } from '@ark-ui/react/date-picker';
import { Portal } from '@ark-ui/react/portal';
import { useTranslation } from 'react-i18next';
import { sva } from '#styled-system/css';
import { controlStyle } from './field.tsx';
import { Icon } from './icons.tsx';
import { useDir } from './use-dir.ts';

export const dateFieldRecipe = sva({
  slots: [
    'root',
    'label',
    'control',
    'trigger',
    'positioner',
    'content',
    'viewControl',
    'navButton',
    'viewTrigger',
    'table',
    'header',
    'cell',
    'hint',
    'error',
  ],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1', minWidth: 0 },
    label: { fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default' },
    control: { display: 'flex', gap: '1', alignItems: 'stretch' },
    trigger: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      width: '10',
      flexShrink: 0,
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border.strong',
      bg: 'bg.surface',
      cursor: 'pointer',
      _hover: { bg: 'bg.hover' },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
    },
    // Ark's positioner takes its z-index from the content's (`--z-index`), so both carry it.
    positioner: { zIndex: 'popover' },
    content: {
      position: 'relative',
      zIndex: 'popover',
      p: '3',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border',
      bg: 'bg.surface',
      color: 'fg.default',
      boxShadow: 'lg',
      outline: 'none',
    },
    viewControl: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2', mb: '2' },
    navButton: {
      '&[dir=rtl] svg': { transform: 'scaleX(-1)' },
      p: '1.5',
      borderRadius: 'md',
      cursor: 'pointer',
      _hover: { bg: 'bg.hover' },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing' },
    },
    viewTrigger: { px: '2', py: '1', borderRadius: 'md', fontWeight: 'semibold', fontSize: 'sm', cursor: 'pointer', _hover: { bg: 'bg.hover' } },
    table: { borderCollapse: 'collapse', fontSize: 'sm' },
    header: { width: '9', height: '8', fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', textAlign: 'center' },
    cell: {
      minWidth: '9',
      height: '9',
      px: '1',
      borderRadius: 'md',
      textAlign: 'center',
      cursor: 'pointer',
      _hover: { bg: 'bg.hover' },
      '&[data-today]': { fontWeight: 'bold', textDecoration: 'underline' },
      '&[data-selected]': { bg: 'primary.main', color: 'primary.contrast' },
      '&[data-focus]': { outline: '2px solid', outlineColor: 'focusRing' },
      '&[data-outside-range]': { color: 'fg.subtle' },
      '&[data-disabled]': { color: 'fg.disabled', cursor: 'not-allowed' },
    },
    hint: { fontSize: 'xs', color: 'fg.muted' },
    error: { fontSize: 'xs', color: 'error.main', fontWeight: 'medium' },
  },
});

/** First day of the week for a locale, 0 = Sunday (Ark's numbering); Intl knows it per region. */
export function firstDayOfWeek(locale: string): number {
  try {
    const tag = new Intl.Locale(locale) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } };
    const info = tag.getWeekInfo?.() ?? tag.weekInfo;
    if (info) return info.firstDay % 7;
  } catch {
    // An unknown tag: the fallback below.
  }
  return /^(en-US|en-IN|hi|gu)/.test(locale) ? 0 : 1;
}

/** Today in the browser's time zone, `YYYY-MM-DD`. */
export function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` → a calendar date, or nothing for an empty or impossible text. */
function toDate(value: string) {
  try {
    return value ? [parseDate(value)] : [];
  } catch {
    return [];
  }
}

export interface DateFieldProps {
  label: string;
  /** ISO date, `YYYY-MM-DD`, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | string[] | null;
  /** Latest date allowed, ISO (a birth date is not in the future). */
  max?: string;
  name?: string;
}

/**
 * A date typed in the locale's format or picked from a calendar (Ark UI DatePicker): the
 * calendar's month names, weekday names and first day of the week follow the UI language.
 * Arrow keys move by day and week, Page Up/Down by month, Enter picks, Escape closes; the month
 * and year views (the title button) make a birth date a few steps away.
 */
export function DateField({ label, value, onChange, hint, error, max, name }: DateFieldProps) {
  const { t, i18n } = useTranslation('ui');
  const dir = useDir();
  const id = useId();
  const classes = dateFieldRecipe();
  const errors = error ? (Array.isArray(error) ? error : [error]) : [];
  const describedBy = [hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const locale = i18n.language;
  const maxDate = max ? toDate(max)[0] : undefined;

  return (
    <DatePicker.Root
      className={classes.root}
      locale={locale}
      startOfWeek={firstDayOfWeek(locale)}
      value={toDate(value)}
      max={maxDate}
      name={name}
      dir={dir}
      invalid={errors.length > 0}
      lazyMount
      unmountOnExit
      onValueChange={(details) => onChange(details.value[0]?.toString() ?? '')}
      translations={{
        trigger: (open) => (open ? t('date.closeCalendar') : t('date.openCalendar')),
        prevTrigger: (view) => t(`date.previous.${view}`),
        nextTrigger: (view) => t(`date.next.${view}`),
        viewTrigger: (_view, next) => (next ? t(`date.switchTo.${next}`) : t('date.chooseDate')),
        content: t('date.calendar'),
      }}
    >
      <DatePicker.Label className={classes.label}>{label}</DatePicker.Label>
      <DatePicker.Control className={classes.control}>
        <DatePicker.Input className={controlStyle} aria-describedby={describedBy} aria-invalid={errors.length ? true : undefined} />
        <DatePicker.Trigger className={classes.trigger}>
          <Icon name="calendar" size={18} />
        </DatePicker.Trigger>
      </DatePicker.Control>
      {hint ? (
        <p id={`${id}-hint`} className={classes.hint}>
          {hint}
        </p>
      ) : null}
      {errors.length ? (
        <p id={`${id}-error`} className={classes.error}>
          {errors.join(' ')}
        </p>
      ) : null}
      <Portal>
        <DatePicker.Positioner className={classes.positioner}>
          <DatePicker.Content className={classes.content}>
            <DatePicker.View view="day">
              <DatePicker.Context>
                {(api) => (
                  <>
                    <ViewControl classes={classes} />
                    <DatePicker.Table className={classes.table}>
                      <DatePicker.TableHead>
                        <DatePicker.TableRow>
                          {api.weekDays.map((day, index) => (
                            <DatePicker.TableHeader key={index} className={classes.header} abbr={day.long}>
                              {day.narrow}
                            </DatePicker.TableHeader>
                          ))}
                        </DatePicker.TableRow>
                      </DatePicker.TableHead>
                      <DatePicker.TableBody>
                        {api.weeks.map((week, row) => (
                          <DatePicker.TableRow key={row}>
                            {week.map((day, index) => (
                              <DatePicker.TableCell key={index} value={day}>
                                <DatePicker.TableCellTrigger className={classes.cell}>{day.day}</DatePicker.TableCellTrigger>
                              </DatePicker.TableCell>
                            ))}
                          </DatePicker.TableRow>
                        ))}
                      </DatePicker.TableBody>
                    </DatePicker.Table>
                  </>
                )}
              </DatePicker.Context>
            </DatePicker.View>
            <DatePicker.View view="month">
              <DatePicker.Context>
                {(api) => (
                  <>
                    <ViewControl classes={classes} />
                    <DatePicker.Table className={classes.table}>
                      <DatePicker.TableBody>
                        {api.getMonthsGrid({ columns: 4, format: 'short' }).map((months, row) => (
                          <DatePicker.TableRow key={row}>
                            {months.map((month, index) => (
                              <DatePicker.TableCell key={index} value={month.value}>
                                <DatePicker.TableCellTrigger className={classes.cell}>{month.label}</DatePicker.TableCellTrigger>
                              </DatePicker.TableCell>
                            ))}
                          </DatePicker.TableRow>
                        ))}
                      </DatePicker.TableBody>
                    </DatePicker.Table>
                  </>
                )}
              </DatePicker.Context>
            </DatePicker.View>
            <DatePicker.View view="year">
              <DatePicker.Context>
                {(api) => (
                  <>
                    <ViewControl classes={classes} />
                    <DatePicker.Table className={classes.table}>
                      <DatePicker.TableBody>
                        {api.getYearsGrid({ columns: 4 }).map((years, row) => (
                          <DatePicker.TableRow key={row}>
                            {years.map((year, index) => (
                              <DatePicker.TableCell key={index} value={year.value}>
                                <DatePicker.TableCellTrigger className={classes.cell}>{year.label}</DatePicker.TableCellTrigger>
                              </DatePicker.TableCell>
                            ))}
                          </DatePicker.TableRow>
                        ))}
                      </DatePicker.TableBody>
                    </DatePicker.Table>
                  </>
                )}
              </DatePicker.Context>
            </DatePicker.View>
          </DatePicker.Content>
        </DatePicker.Positioner>
      </Portal>
    </DatePicker.Root>
  );
}

function ViewControl({ classes }: { classes: ReturnType<typeof dateFieldRecipe> }) {
  return (
    <DatePicker.ViewControl className={classes.viewControl}>
      <DatePicker.PrevTrigger className={classes.navButton}>
        <Icon name="chevronBack" size={18} />
      </DatePicker.PrevTrigger>
      <DatePicker.ViewTrigger className={classes.viewTrigger}>
        <DatePicker.RangeText />
      </DatePicker.ViewTrigger>
      <DatePicker.NextTrigger className={classes.navButton}>
        <Icon name="chevron" size={18} />
      </DatePicker.NextTrigger>
    </DatePicker.ViewControl>
  );
}
