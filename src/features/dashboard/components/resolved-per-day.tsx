import { lazy, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Bone } from '#src/components/ui/skeleton.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useInView } from '#src/lib/use-in-view.ts';

const ResolvedChart = lazy(() => import('./resolved-chart.tsx'));

/**
 * Tickets resolved per day as bars, with the same figures as a table for screen readers (the
 * drawing is hidden from them and takes no focus: no accessibility layer).
 *
 * The chart library loads and draws only when the card comes near the screen (issue 22): drawing
 * cost a phone's main thread over a second (recharts measures and renders in several synchronous
 * passes), which a dashboard whose chart is below the fold need not pay while it loads. The box
 * keeps its size meanwhile; the table is always there.
 */
export function ResolvedPerDay({ days }: { days: Array<{ day: string; count: number }> }) {
  const { t } = useTranslation('dashboard');
  const format = useFormat('UTC');
  const rows = days.map((d) => ({ ...d, label: format.date(`${d.day}T00:00:00Z`, 'short') }));
  const box = useRef<HTMLDivElement>(null);
  const inView = useInView(box);
  return (
    <div data-testid="resolved-chart">
      <div ref={box} aria-hidden="true" className={css({ width: '100%', height: '180px', color: 'primary.main' })}>
        {inView ? (
          <Suspense fallback={<Bone height="180px" />}>
            <ResolvedChart rows={rows} series={t('admin.resolved.series')} />
          </Suspense>
        ) : (
          <Bone height="180px" />
        )}
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
