import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { css } from '#styled-system/css';
import type { PaperStatisticsRecord } from '../api/statistics-api.ts';
import { bandLabel } from '../lib/statistics-format.ts';

/**
 * The item analysis charts (recharts, docs/decisions/0256): this module is its own chunk, loaded
 * only when the screen shows charts. Each chart is a figure named by its caption; its figures
 * are in the tables beside it (the accessible alternative), so the SVG itself is hidden from
 * assistive technology rather than read out bar by bar.
 */
const WIDTH = 640;
const HEIGHT = 260;
const scroll = css({ overflowX: 'auto' });
const figure = css({ display: 'grid', gap: '2' });
const caption = css({ fontWeight: 'semibold', fontSize: 'sm' });
const desc = css({ fontSize: 'xs', color: 'fg.muted' });

export function DistributionChart({ statistics, tableId }: { statistics: PaperStatisticsRecord; tableId: string }) {
  const { t } = useTranslation('projects');
  const data = statistics.paper.distribution.map((bin) => ({ band: bandLabel(bin.from, bin.to), count: bin.count }));
  return (
    <figure className={figure} aria-labelledby="distribution-caption" aria-describedby="distribution-desc" data-testid="distribution-chart">
      <figcaption id="distribution-caption" className={caption}>
        {t('results.analysis.distributionTitle')}
      </figcaption>
      <p id="distribution-desc" className={desc}>
        {t('results.analysis.distributionDesc', { max: statistics.paper.maxTotal, table: tableId })}
      </p>
      <div className={scroll} aria-hidden="true">
        <BarChart width={WIDTH} height={HEIGHT} data={data} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="band" />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Bar dataKey="count" name={t('results.analysis.candidates')} fill={'var(--colors-primary-main)'} isAnimationActive={false} />
        </BarChart>
      </div>
    </figure>
  );
}

export function ItemsChart({ statistics }: { statistics: PaperStatisticsRecord }) {
  const { t } = useTranslation('projects');
  const data = [...statistics.items]
    .sort((a, b) => a.number - b.number)
    .map((item) => ({ question: t('results.analysis.questionShort', { number: item.number }), facility: item.facility, discrimination: item.pointBiserial }));
  return (
    <figure className={figure} aria-labelledby="items-chart-caption" aria-describedby="items-chart-desc" data-testid="items-chart">
      <figcaption id="items-chart-caption" className={caption}>
        {t('results.analysis.itemsChartTitle')}
      </figcaption>
      <p id="items-chart-desc" className={desc}>
        {t('results.analysis.itemsChartDesc')}
      </p>
      <div className={scroll} aria-hidden="true">
        <BarChart
          width={Math.max(WIDTH, data.length * 36)}
          height={HEIGHT}
          data={data}
          accessibilityLayer={false}
          margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="question" />
          <YAxis domain={[-1, 1]} />
          <Tooltip />
          <Legend />
          <ReferenceLine y={0} stroke={'var(--colors-fg-muted)'} />
          <Bar dataKey="facility" name={t('results.analysis.facility')} fill={'var(--colors-primary-main)'} isAnimationActive={false} />
          <Bar dataKey="discrimination" name={t('results.analysis.pointBiserial')} fill={'var(--colors-warning-main)'} isAnimationActive={false} />
        </BarChart>
      </div>
    </figure>
  );
}
