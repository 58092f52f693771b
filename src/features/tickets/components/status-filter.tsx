import { useTranslation } from 'react-i18next';
import { ticketStatusNames, ticketStatuses } from '#machines/ticket-lifecycle.machine.ts';
import { css, cx } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';
import type { TicketCounts } from '../api/tickets-api.ts';

const chip = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  px: '3',
  py: '1.5',
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.surface',
  fontSize: 'sm',
  cursor: 'pointer',
  _hover: { bg: 'bg.hover' },
  '&[aria-pressed=true]': { bg: 'primary.main', color: 'primary.contrast', borderColor: 'primary.main' },
});
const count = css({ fontSize: 'xs', fontWeight: 'bold', minWidth: '5', textAlign: 'center' });

/** "All" and one button per status, each with its count; the chosen one is pressed. */
export function StatusFilter({ value, counts, onChange }: { value: number | null; counts: TicketCounts | null; onChange: (statusId: number | null) => void }) {
  const { t } = useTranslation('tickets');
  const format = useFormat();
  const countOf = (statusId: number | null) =>
    counts ? (statusId === null ? counts.total : (counts.byStatus.find((s) => s.statusId === statusId)?.count ?? 0)) : null;
  const options: Array<{ id: number | null; label: string }> = [
    { id: null, label: t('status.all') },
    ...ticketStatusNames.map((status) => ({ id: ticketStatuses[status], label: t(`status.${status}`) })),
  ];
  return (
    <div role="group" aria-label={t('filterByStatus')} className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })} data-testid="status-filter">
      {options.map((option) => {
        const n = countOf(option.id);
        return (
          <button key={option.id ?? 'all'} type="button" className={cx(chip)} aria-pressed={value === option.id} onClick={() => onChange(option.id)}>
            <span>{option.label}</span>
            {n === null ? null : <span className={count}>{format.number(n)}</span>}
          </button>
        );
      })}
    </div>
  );
}
