import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { css } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';

/**
 * Tickets resolved per day as bars (recharts, docs/decisions/0266), with the same figures as a
 * table for screen readers (the drawing is hidden from them and takes no focus: no accessibility
 * layer). Its own chunk: the chart library loads after the card's figures.
 */
export default function ResolvedChart({ days }: { days: Array<{ day: string; count: number }> }) {
  const { t } = useTranslation('dashboard');
  const format = useFormat('UTC');
  const rows = days.map((d) => ({ ...d, label: format.date(`${d.day}T00:00:00Z`, 'short') }));
  return (
    <div data-testid="resolved-chart">
      <div aria-hidden="true" className={css({ width: '100%', height: '180px', color: 'primary.main' })}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 4, right: 4, bottom: 4, left: -20 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--colors-border)" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: 'var(--colors-fg-muted)' }} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--colors-fg-muted)' }} />
            <Tooltip />
            <Bar dataKey="count" name={t('admin.resolved.series')} fill="currentColor" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className={css({ srOnly: true })}>
        <caption>{t('admin.resolved.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.resolved.day')}</th>
            <th scope="col">{t('admin.resolved.series')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.day}>
              <td>{row.label}</td>
              <td>{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
