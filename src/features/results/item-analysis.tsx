import { lazy, Suspense, useCallback, useEffect, useMemo, useState, Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { P } from '#machines/permissions.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { card } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { css } from '#styled-system/css';
import { statisticsApi, type ItemStatisticsRecord, type PaperStatisticsRecord } from './api/statistics-api.ts';
import { bandLabel, decimal, percent } from './lib/statistics-format.ts';

// The chart library comes with its own chunk, after the figures are on screen (docs/decisions/0256).
const charts = () => import('./components/statistics-charts.tsx');
const DistributionChart = lazy(() => charts().then((m) => ({ default: m.DistributionChart })));
const ItemsChart = lazy(() => charts().then((m) => ({ default: m.ItemsChart })));

const grid = css({ display: 'grid', gap: '4' });
const summaryList = css({ display: 'grid', gap: '3', gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, p: '4' });
const figureLabel = css({ fontSize: 'xs', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: 'wide' });
const figureValue = css({ fontSize: 'xl', fontWeight: 'semibold', fontVariantNumeric: 'tabular-nums' });
const padded = css({ p: '4', display: 'grid', gap: '3' });
const sectionTitle = css({ fontWeight: 'semibold', fontSize: 'lg' });

/** A chart that failed to load (its chunk, offline) leaves the tables, which carry the same figures. */
class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function Summary({ statistics }: { statistics: PaperStatisticsRecord }) {
  const { t, i18n } = useTranslation('projects');
  const lang = i18n.language;
  const p = statistics.paper;
  const figures: Array<[string, string, string]> = [
    ['deliveries', t('results.analysis.deliveries'), String(statistics.deliveries)],
    ['mean', t('results.analysis.mean', { max: p.maxTotal }), decimal(p.mean, lang)],
    ['sd', t('results.analysis.sd'), decimal(p.sd, lang)],
    ['median', t('results.analysis.median'), decimal(p.median, lang, 1)],
    ['range', t('results.analysis.range'), p.min === null || p.max === null ? '–' : `${decimal(p.min, lang, 1)} – ${decimal(p.max, lang, 1)}`],
    [
      'reliability',
      t('results.analysis.reliability', { kind: p.reliabilityKind === 'KR-20' ? 'KR-20' : t('results.analysis.alpha') }),
      decimal(p.reliability, lang),
    ],
    ['sem', t('results.analysis.sem'), decimal(p.sem, lang)],
    ['flagged', t('results.analysis.flagged'), String(statistics.flagged)],
  ];
  return (
    <dl className={summaryList} data-testid="analysis-summary">
      {figures.map(([key, label, value]) => (
        <div key={key} data-testid={`summary-${key}`}>
          <dt className={figureLabel}>{label}</dt>
          <dd className={figureValue}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function FlagBadges({ item }: { item: ItemStatisticsRecord }) {
  const { t } = useTranslation('projects');
  if (item.flags.length === 0) return <span className={css({ color: 'fg.muted' })}>{t('results.analysis.noFlag')}</span>;
  return (
    <span className={css({ display: 'inline-flex', flexWrap: 'wrap', gap: '1' })}>
      {item.flags.map((flag) => (
        <Badge key={flag} tone={flag === 'noVariance' ? 'neutral' : 'error'} testId={`flag-${item.number}-${flag}`}>
          {t(`results.flag.${flag}`)}
        </Badge>
      ))}
    </span>
  );
}

function Analysis({ paperId }: { paperId: number }) {
  const { t, i18n } = useTranslation('projects');
  const lang = i18n.language;
  const [statistics, setStatistics] = useState<PaperStatisticsRecord | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const errorText = useErrorText(error);

  const load = useCallback(() => {
    setError(null);
    setStatistics(null);
    return statisticsApi.statistics(paperId).then(setStatistics, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, [paperId]);
  useEffect(() => {
    void load();
  }, [load]);

  const rows = useMemo(
    () => [...(statistics?.items ?? [])].sort((a, b) => a.number - b.number).filter((item) => !onlyFlagged || item.flags.some((f) => f !== 'noVariance')),
    [statistics, onlyFlagged],
  );

  if (error) return <ErrorState message={errorText ?? t('results.analysis.failed')} onRetry={() => void load()} />;
  if (!statistics) return <LoadingState />;
  if (statistics.deliveries === 0) {
    return (
      <div className={card}>
        <EmptyState title={t('results.analysis.none')}>{t('results.analysis.noneHint')}</EmptyState>
      </div>
    );
  }

  const columns: Column<ItemStatisticsRecord>[] = [
    { key: 'number', header: t('results.analysis.number'), cell: (i) => i.number },
    { key: 'kind', header: t('results.analysis.kind'), cell: (i) => t(`results.kind.${i.kind}`, { defaultValue: i.kind }), hideOnSmall: true },
    { key: 'key', header: t('results.analysis.key'), cell: (i) => (i.key.length ? i.key.join(', ') : '–') },
    { key: 'facility', header: t('results.analysis.facility'), cell: (i) => percent(i.facility, lang), align: 'end' },
    { key: 'pointBiserial', header: t('results.analysis.pointBiserial'), cell: (i) => decimal(i.pointBiserial, lang), align: 'end' },
    { key: 'upperLower', header: t('results.analysis.upperLower'), cell: (i) => decimal(i.upperLowerIndex, lang), align: 'end', hideOnSmall: true },
    { key: 'omitted', header: t('results.analysis.omitted'), cell: (i) => percent(i.omittedRate, lang), align: 'end', hideOnSmall: true },
    {
      key: 'distractors',
      header: t('results.analysis.distractors'),
      cell: (i) =>
        i.distractors.length
          ? i.distractors
              .map((d) => t(d.correct ? 'results.analysis.optionKey' : 'results.analysis.option', { option: d.optionId, count: d.count }))
              .join(' · ')
          : '–',
      hideOnSmall: true,
    },
    { key: 'flags', header: t('results.analysis.flags'), cell: (i) => <FlagBadges item={i} /> },
  ];

  const tableFallback = <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('results.analysis.chartsFailed')}</p>;
  return (
    <div className={grid}>
      <div className={card}>
        <Summary statistics={statistics} />
        {statistics.awaitingMarking > 0 ? (
          <p className={css({ px: '4', pb: '4', fontSize: 'sm', color: 'fg.muted' })}>
            {t('results.analysis.awaiting', { count: statistics.awaitingMarking })}
          </p>
        ) : null}
      </div>
      <section aria-labelledby="distribution-title" className={`${card} ${padded}`}>
        <h2 id="distribution-title" className={sectionTitle}>
          {t('results.analysis.distributionHeading')}
        </h2>
        <ChartBoundary fallback={tableFallback}>
          <Suspense fallback={<LoadingState label={t('results.analysis.loadingCharts')} />}>
            <DistributionChart statistics={statistics} tableId="distribution-table" />
          </Suspense>
        </ChartBoundary>
        <DataTable
          caption={t('results.analysis.distributionCaption')}
          columns={[
            { key: 'band', header: t('results.analysis.band'), cell: (b: { from: number; to: number }) => bandLabel(b.from, b.to) },
            { key: 'count', header: t('results.analysis.candidates'), cell: (b: { count: number }) => b.count, align: 'end' },
          ]}
          rows={statistics.paper.distribution}
          rowKey={(b) => String(b.from)}
          testId="distribution-table"
        />
      </section>
      <section aria-labelledby="items-title" className={`${card} ${padded}`}>
        <h2 id="items-title" className={sectionTitle}>
          {t('results.analysis.itemsHeading')}
        </h2>
        <ChartBoundary fallback={tableFallback}>
          <Suspense fallback={<LoadingState label={t('results.analysis.loadingCharts')} />}>
            <ItemsChart statistics={statistics} />
          </Suspense>
        </ChartBoundary>
        <Checkbox checked={onlyFlagged} onChange={setOnlyFlagged} testId="only-flagged">
          {t('results.analysis.onlyFlagged')}
        </Checkbox>
        {rows.length === 0 ? (
          <EmptyState title={t('results.analysis.noFlagged')} />
        ) : (
          <DataTable
            caption={t('results.analysis.itemsCaption', { paper: statistics.code })}
            columns={columns}
            rows={rows}
            rowKey={(i) => i.versionId}
            testId="items-table"
          />
        )}
      </section>
    </div>
  );
}

/**
 * The item analysis of one paper (issue 20): a tab of the paper screen, shown to who may see the
 * paper's content (its setters, moderators, project admins; the server checks it too).
 */
export function ItemAnalysisPanel({ paperId }: { paperId: number }) {
  return (
    <PermissionGate permission={P.Exams.View}>
      <Analysis key={paperId} paperId={paperId} />
    </PermissionGate>
  );
}
