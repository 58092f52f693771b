import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyStateMachine } from 'xstate';
import { css } from '#styled-system/css';
import { computeCoverage, pathKey } from '#machines/graph-coverage.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { card } from '#src/components/ui/page-header.tsx';
import { Pagination } from '#src/components/ui/pagination.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { saveFile } from '#src/lib/save-file.ts';
import type { MachineCoverage, MachineReplay } from './api/machines-api.ts';
import { diagramModel, eventLabel } from './diagram-model.ts';
import { layoutDiagram, type DiagramLayout } from './layout.ts';
import type { CatalogueEntry, TestPath } from './machine-catalogue.ts';
import { toMermaid } from './mermaid.ts';
import { noHighlight, StatechartSvg, type Highlight, type StatechartHandle } from './statechart-svg.tsx';
import { standaloneSvg } from './svg-export.ts';
import { activeStateIds, stateValueText, useLiveActors } from './use-live-actors.ts';

export type CoverageState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; reports: MachineCoverage[] };

type Loaded<T> = { status: 'loading' } | { status: 'failed'; error: unknown } | { status: 'ready'; value: T };

const section = css({ p: '4', display: 'flex', flexDirection: 'column', gap: '3' });
const heading2 = css({ fontSize: 'lg', fontWeight: 'semibold' });
const listBox = css({ maxHeight: '320px', overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: '1' });
const pathButton = css({
  textAlign: 'start',
  fontFamily: 'mono',
  fontSize: 'xs',
  px: '2',
  py: '1.5',
  borderRadius: 'sm',
  borderWidth: '1px',
  borderColor: 'transparent',
  cursor: 'pointer',
  color: 'fg.default',
  wordBreak: 'break-word',
  _hover: { bg: 'bg.hover' },
  '&[aria-pressed=true]': { bg: 'primary.lighter', borderColor: 'primary.main', color: 'primary.darker' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
});
const mono = css({ fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-word' });

/** A state value as dotted paths: `outdated.reloading`, or `a.x, b.y` for parallel states. */
export function stateText(value: unknown): string {
  const paths = (v: unknown): string[] => {
    if (typeof v === 'string') return [v];
    if (v && typeof v === 'object') {
      return Object.entries(v as Record<string, unknown>).flatMap(([key, child]) => {
        const below = paths(child);
        return below.length ? below.map((rest) => `${key}.${rest}`) : [key];
      });
    }
    return [];
  };
  return paths(value).join(', ');
}

/** `a → b → c ⇒ end` of a test path: its events (the init step left out) and where it ends. */
export function pathDescription(path: TestPath): string {
  const events = path.steps
    .filter((step) => step.event.type !== 'xstate.init')
    .map((step) => (step.event.type.startsWith('xstate.after.') ? `after(${step.event.type.split('.')[2]})` : eventLabel(step.event.type)));
  return events.length ? `${events.join(' → ')} ⇒ ${stateText(path.state.value)}` : '';
}

function CoverageBadge({ machineId, coverage }: { machineId: string; coverage: CoverageState }) {
  const { t } = useTranslation('machines');
  const format = useFormat();
  if (coverage.status === 'loading') return <Badge testId="coverage-badge">{t('coverage.loading')}</Badge>;
  if (coverage.status === 'failed')
    return (
      <Badge tone="warning" testId="coverage-badge">
        {t('coverage.unavailable')}
      </Badge>
    );
  const report = coverage.reports.find((r) => r.machineId === machineId);
  if (!report) return <Badge testId="coverage-badge">{t('coverage.notMeasured')}</Badge>;
  // Only transitions a replay checked against an independent expectation count (issue 14).
  const complete = report.states.covered === report.states.total && report.verified.covered === report.verified.total;
  return (
    <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
      <Badge tone={complete ? 'success' : 'warning'} testId="coverage-badge">
        {t('coverage.verifiedSummary', {
          states: report.states.covered,
          statesTotal: report.states.total,
          transitions: report.verified.covered,
          transitionsTotal: report.verified.total,
        })}
      </Badge>
      {report.mutationScore !== null ? (
        <Badge tone={report.mutationScore >= 90 ? 'success' : 'warning'} testId="mutation-badge">
          {t('coverage.mutationScore', { score: report.mutationScore })}
        </Badge>
      ) : null}
      {report.generatedAt ? (
        <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{t('coverage.measuredAt', { when: format.dateTime(report.generatedAt) })}</span>
      ) : null}
      {complete ? null : (
        <details className={css({ fontSize: 'xs', flexBasis: '100%' })} data-testid="coverage-uncovered">
          <summary className={css({ cursor: 'pointer', color: 'fg.muted' })}>{t('coverage.uncovered')}</summary>
          <ul className={css({ mt: '1', display: 'flex', flexDirection: 'column', gap: '0.5' })}>
            {[...report.states.uncovered, ...report.verified.uncovered].map((item) => (
              <li key={item} className={mono}>
                {item}
              </li>
            ))}
          </ul>
        </details>
      )}
    </span>
  );
}

function LivePanel({ machineId, highlightLive, onHighlightLive }: { machineId: string; highlightLive: boolean; onHighlightLive: (on: boolean) => void }) {
  const { t } = useTranslation('machines');
  const format = useFormat();
  const actors = useLiveActors(machineId);
  return (
    <section className={`${card} ${section}`} aria-labelledby={`live-${machineId}`} data-testid="live-panel">
      <h3 id={`live-${machineId}`} className={heading2}>
        {t('live.title')}
      </h3>
      {actors.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('live.none')}</p>
      ) : (
        <>
          <Checkbox checked={highlightLive} onChange={onHighlightLive}>
            {t('live.highlight')}
          </Checkbox>
          {actors.map((actor) => (
            <div key={actor.id} data-testid={`live-actor-${actor.id}`} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
              <p className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>
                <span className={mono}>{actor.id}</span>
              </p>
              <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1', columnGap: '3', fontSize: 'sm' })}>
                <dt className={css({ color: 'fg.muted' })}>{t('live.state')}</dt>
                <dd className={mono} data-testid="live-state">
                  {stateValueText(actor, stateText)}
                </dd>
              </dl>
              <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                {t('live.status', { status: actor.stopped ? 'stopped' : actor.actorRef.getSnapshot().status })}
              </p>
              <h4 className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>{t('live.events')}</h4>
              {actor.events.length === 0 ? (
                <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{t('live.noEvents')}</p>
              ) : (
                <ol className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })} data-testid="live-events">
                  {actor.events.map((event, index) => (
                    <li key={`${event.at}-${index}`} className={css({ display: 'flex', gap: '2', fontSize: 'xs' })}>
                      <span className={mono}>{eventLabel(event.type)}</span>
                      <span className={css({ color: 'fg.muted' })}>{format.time(event.at, 'medium')}</span>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          ))}
        </>
      )}
    </section>
  );
}

/** Per path: the systems it was replayed against in the latest run, with the result and date. */
function PathReplays({ runs, pathKey: key }: { runs: readonly MachineReplay[]; pathKey: string }) {
  const { t } = useTranslation('machines');
  const format = useFormat();
  if (!runs.length) return <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{t('replays.none')}</span>;
  return (
    <span className={css({ display: 'inline-flex', flexWrap: 'wrap', gap: '2', fontSize: 'xs', color: 'fg.muted' })} data-testid="path-replays">
      {runs.map((replay) => (
        <span key={replay.system} data-system={replay.system} data-result={replay.results[key]}>
          {t('replays.run', {
            system: t(`replays.system.${replay.system}`),
            result: t(`replays.result.${replay.results[key]}`),
            when: format.dateTime(replay.ranAt),
          })}
          {replay.independent ? '' : ` (${t('replays.selfChecked')})`}
        </span>
      ))}
    </span>
  );
}

/**
 * Paths shown at once. Some actors have thousands of paths (the notification center 9,433):
 * drawing them all made the page slow to open and the list useless to scan, so the list is
 * searched and paged instead.
 */
export const PATHS_PER_PAGE = 50;

const noReplays: MachineReplay[] = [];

interface ListedPath {
  /** Its place among all the actor's paths: what the tests and replays number it by. */
  index: number;
  path: TestPath;
  description: string;
  key: string;
  runs: readonly MachineReplay[];
}

function PathsPanel({
  machineId,
  paths,
  selected,
  onSelect,
  replays,
}: {
  machineId: string;
  paths: Loaded<readonly TestPath[]> | null;
  selected: number | null;
  onSelect: (index: number | null) => void;
  replays: MachineReplay[];
}) {
  const { t } = useTranslation('machines');
  const format = useFormat();
  const [query, setQuery] = useState('');
  const [unreplayedOnly, setUnreplayedOnly] = useState(false);
  const [page, setPage] = useState(1);
  const listed = useMemo<ListedPath[]>(() => {
    if (paths?.status !== 'ready') return [];
    return paths.value.map((path, index) => {
      const key = pathKey(path);
      return { index, path, description: pathDescription(path) || t('paths.initial'), key, runs: replays.filter((replay) => replay.results[key]) };
    });
  }, [paths, replays, t]);
  const matching = useMemo(() => {
    const words = query.trim().toLocaleLowerCase();
    return listed.filter(
      (entry) =>
        (!unreplayedOnly || entry.runs.length === 0) && (!words || String(entry.index + 1) === words || entry.description.toLocaleLowerCase().includes(words)),
    );
  }, [listed, query, unreplayedOnly]);
  const totalPages = Math.max(1, Math.ceil(matching.length / PATHS_PER_PAGE));
  const currentPage = Math.min(page, totalPages);
  const shown = matching.slice((currentPage - 1) * PATHS_PER_PAGE, currentPage * PATHS_PER_PAGE);
  const chosen = paths?.status === 'ready' && selected !== null ? paths.value[selected] : null;
  return (
    <section className={`${card} ${section}`} aria-labelledby={`paths-${machineId}`} data-testid="paths-panel">
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2', flexWrap: 'wrap' })}>
        <h3 id={`paths-${machineId}`} className={heading2}>
          {t('paths.title')}
        </h3>
        {selected !== null ? (
          <Button size="sm" variant="ghost" onClick={() => onSelect(null)}>
            {t('paths.clear')}
          </Button>
        ) : null}
      </div>
      {paths === null ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('paths.none')}</p>
      ) : paths.status === 'loading' ? (
        <LoadingState label={t('paths.computing')} />
      ) : paths.status === 'failed' ? (
        <ErrorState message={t('paths.failed')} />
      ) : (
        <>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('paths.count', { count: paths.value.length })}</p>
          <div className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
            <SearchInput
              label={t('paths.find')}
              value={query}
              data-testid="path-search"
              onChange={(event) => {
                setQuery(event.target.value);
                setPage(1);
              }}
            />
            <Checkbox
              checked={unreplayedOnly}
              testId="path-unreplayed-only"
              onChange={(checked) => {
                setUnreplayedOnly(checked);
                setPage(1);
              }}
            >
              {t('paths.unreplayedOnly')}
            </Checkbox>
          </div>
          {matching.length === 0 ? (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })} role="status" data-testid="path-no-match">
              {t('paths.noMatch')}
            </p>
          ) : (
            <>
              {matching.length < listed.length ? (
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })} role="status">
                  {t('paths.matching', { count: matching.length, total: format.number(listed.length) })}
                </p>
              ) : null}
              <ul className={listBox} data-testid="path-list">
                {shown.map((entry) => (
                  <li key={entry.index}>
                    <button
                      type="button"
                      className={pathButton}
                      aria-pressed={selected === entry.index}
                      aria-label={`${t('paths.show', { number: entry.index + 1 })}: ${entry.description}`}
                      onClick={() => onSelect(selected === entry.index ? null : entry.index)}
                    >
                      {entry.index + 1}. {entry.description}
                    </button>
                    <PathReplays runs={entry.runs} pathKey={entry.key} />
                  </li>
                ))}
              </ul>
              {totalPages > 1 ? (
                <Pagination page={currentPage} pageSize={PATHS_PER_PAGE} totalCount={matching.length} totalPages={totalPages} onPage={setPage} />
              ) : null}
            </>
          )}
          {chosen ? (
            <div>
              <h4 className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '1' })}>{t('paths.steps')}</h4>
              <ol className={css({ listStyle: 'decimal', paddingInlineStart: '6', fontSize: 'xs' })} data-testid="path-steps">
                {chosen.steps.map((step, index) => (
                  <li key={index} className={mono}>
                    {eventLabel(step.event.type)} → {stateText(step.state.value)}
                  </li>
                ))}
              </ol>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

/** One machine: its diagram with zoom, export, coverage, test paths and live actors. */
export function MachineView({ entry, coverage }: { entry: CatalogueEntry; coverage: CoverageState }) {
  const { t } = useTranslation('machines');
  const helpId = useId();
  const [loaded, setLoaded] = useState<Loaded<{ machine: AnyStateMachine; paths?: () => readonly TestPath[] }>>({ status: 'loading' });
  const [layout, setLayout] = useState<Loaded<DiagramLayout>>({ status: 'loading' });
  const [paths, setPaths] = useState<Loaded<readonly TestPath[]> | null>({ status: 'loading' });
  const [selected, setSelected] = useState<number | null>(null);
  const [highlightLive, setHighlightLive] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const diagram = useRef<StatechartHandle>(null);

  useEffect(() => {
    let current = true;
    setLoaded({ status: 'loading' });
    setLayout({ status: 'loading' });
    setPaths({ status: 'loading' });
    setSelected(null);
    entry.load().then(
      (value) => current && setLoaded({ status: 'ready', value }),
      (error: unknown) => current && setLoaded({ status: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [entry, attempt]);

  const machine = loaded.status === 'ready' ? loaded.value.machine : null;
  const model = useMemo(() => (machine ? diagramModel(machine) : null), [machine]);
  const mermaid = useMemo(() => (model ? toMermaid(model) : ''), [model]);

  useEffect(() => {
    if (!model) return;
    let current = true;
    layoutDiagram(model).then(
      (value) => current && setLayout({ status: 'ready', value }),
      (error: unknown) => current && setLayout({ status: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [model]);

  // Paths can take a moment (hundreds for the toast queue): after the diagram, off the click.
  useEffect(() => {
    if (loaded.status !== 'ready') return;
    const make = loaded.value.paths;
    if (!make) {
      setPaths(null);
      return;
    }
    const timer = setTimeout(() => {
      try {
        setPaths({ status: 'ready', value: make() });
      } catch (error) {
        setPaths({ status: 'failed', error });
      }
    }, 0);
    return () => clearTimeout(timer);
  }, [loaded]);

  // Kept between renders: the paths panel indexes thousands of paths by these.
  const replays = useMemo(
    () => (coverage.status === 'ready' && machine ? (coverage.reports.find((r) => r.machineId === machine.id)?.replays ?? noReplays) : noReplays),
    [coverage, machine],
  );
  const liveActors = useLiveActors(machine?.id ?? entry.id);
  const pathHighlight = useMemo(() => {
    if (!machine || paths?.status !== 'ready' || selected === null || !paths.value[selected]) return null;
    return computeCoverage(machine, [paths.value[selected] as never]);
  }, [machine, paths, selected]);
  const liveIds = highlightLive ? liveActors.flatMap(activeStateIds) : [];
  const liveKey = liveIds.join('|');
  const highlight: Highlight = useMemo(
    () =>
      pathHighlight || liveKey
        ? {
            liveStates: new Set(liveKey ? liveKey.split('|') : []),
            pathStates: new Set(pathHighlight?.states.covered ?? []),
            pathTransitions: new Set(pathHighlight?.transitions.covered ?? []),
          }
        : noHighlight,
    [pathHighlight, liveKey],
  );

  const exportSvg = () => {
    const svg = diagram.current?.svg();
    if (!svg || layout.status !== 'ready') return;
    saveFile(new Blob([standaloneSvg(svg, layout.value)], { type: 'image/svg+xml' }), `${entry.id}.svg`);
  };
  const downloadMermaid = () => saveFile(new Blob([mermaid], { type: 'text/plain' }), `${entry.id}.mmd`);
  const copyMermaid = async () => {
    try {
      await navigator.clipboard.writeText(mermaid);
      void notify.success(t('mermaidCopied', { id: entry.id }));
    } catch {
      void notify.warning(t('mermaidCopyFailed'));
    }
  };

  if (loaded.status === 'loading') return <LoadingState label={t('loadingMachine')} />;
  if (loaded.status === 'failed') return <ErrorState message={t('machineFailed')} onRetry={() => setAttempt((n) => n + 1)} />;

  const ready = layout.status === 'ready';
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', minWidth: 0 })} data-testid="machine-view" data-machine={entry.id}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '3' })}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: 0 })}>
          <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
            <span className={css({ fontFamily: 'mono' })}>{entry.id}</span>
          </h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('source', { file: entry.file })}</p>
        </div>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })} aria-label={t('coverage.label')} role="group">
          <CoverageBadge machineId={machine!.id} coverage={coverage} />
        </div>
      </div>

      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })} role="toolbar" aria-label={t('diagram', { id: entry.id })}>
        <Button size="sm" variant="outline" onClick={() => diagram.current?.zoom(1.25)} disabled={!ready}>
          {t('zoomIn')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => diagram.current?.zoom(0.8)} disabled={!ready}>
          {t('zoomOut')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => diagram.current?.fit()} disabled={!ready}>
          {t('fit')}
        </Button>
        <Button size="sm" onClick={exportSvg} disabled={!ready}>
          {t('exportSvg')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => void copyMermaid()}>
          {t('copyMermaid')}
        </Button>
        <Button size="sm" variant="outline" onClick={downloadMermaid}>
          {t('downloadMermaid')}
        </Button>
      </div>

      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', xl: 'minmax(0, 1fr) 340px' }, alignItems: 'start' })}>
        <figure className={css({ display: 'flex', flexDirection: 'column', gap: '2', minWidth: 0 })}>
          {layout.status === 'loading' ? <LoadingState label={t('layingOut')} /> : null}
          {layout.status === 'failed' ? <ErrorState message={t('layoutFailed')} onRetry={() => setAttempt((n) => n + 1)} /> : null}
          {ready ? (
            <StatechartSvg ref={diagram} layout={layout.value} highlight={highlight} label={t('diagram', { id: entry.id })} describedBy={helpId} />
          ) : null}
          <figcaption id={helpId} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            {t('diagramHelp')}
          </figcaption>
          <Legend />
        </figure>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', minWidth: 0 })}>
          <LivePanel machineId={machine!.id} highlightLive={highlightLive} onHighlightLive={setHighlightLive} />
          <PathsPanel machineId={machine!.id} paths={paths} selected={selected} onSelect={setSelected} replays={replays} />
        </div>
      </div>

      <details className={`${card} ${css({ p: '3' })}`}>
        <summary className={css({ cursor: 'pointer', fontWeight: 'semibold', fontSize: 'sm' })}>{t('mermaidText')}</summary>
        <pre dir="ltr" className={css({ mt: '2', fontFamily: 'mono', fontSize: 'xs', overflowX: 'auto', whiteSpace: 'pre' })} data-testid="mermaid-text">
          {mermaid}
        </pre>
      </details>
    </div>
  );
}

function Legend() {
  const { t } = useTranslation('machines');
  const swatch = (className: string) => (
    <span aria-hidden="true" className={`${className} ${css({ display: 'inline-block', width: '4', height: '3', borderRadius: 'sm', borderWidth: '2px' })}`} />
  );
  return (
    <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', fontSize: 'xs', color: 'fg.muted' })} aria-label={t('legend.title')}>
      <li className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
        {swatch(css({ bg: 'success.lighter', borderColor: 'success.main' }))}
        {t('legend.live')}
      </li>
      <li className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
        {swatch(css({ bg: 'primary.lighter', borderColor: 'primary.main' }))}
        {t('legend.path')}
      </li>
      <li className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
        {swatch(css({ bg: 'bg.surface', borderColor: 'border.strong', outline: '1px solid', outlineColor: 'border.strong', outlineOffset: '1px' }))}
        {t('legend.final')}
      </li>
      <li className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
        <span aria-hidden="true" className={css({ display: 'inline-block', width: '3', height: '3', borderRadius: 'full', bg: 'fg.default' })} />
        {t('legend.initial')}
      </li>
      <li className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
        {swatch(css({ borderStyle: 'dashed', borderColor: 'border.strong' }))}
        {t('legend.region')}
      </li>
    </ul>
  );
}
