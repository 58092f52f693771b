import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, LoadingState } from '#src/components/ui/states.tsx';
import { machinesApi, type ScopeFlow } from './api/machines-api.ts';
import { findCatalogueEntry, machineCatalogue, type CatalogueEntry, type TestPath } from './machine-catalogue.ts';
import { MachineView, type CoverageState } from './machine-view.tsx';

const navLink = css({
  display: 'block',
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontFamily: 'mono',
  fontSize: 'sm',
  color: 'fg.default',
  textDecoration: 'none',
  _hover: { bg: 'bg.hover' },
  '&[aria-current=page]': { bg: 'primary.lighter', color: 'primary.darker', fontWeight: 'semibold' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
});

/**
 * A project's review flow as a catalogue entry: compiled from its stored definition exactly as
 * the server compiles it (machines/exams/review-flow.machine.ts), with the model-based paths
 * its tests walk.
 */
export function flowEntry(flow: ScopeFlow): CatalogueEntry & { label: string } {
  return {
    id: flow.machineId,
    label: `${flow.projectCode} · ${flow.name}`,
    file: `machines/exams/review-flow.machine.ts (compileFlow: ${flow.projectCode} · ${flow.name}, v${flow.version})`,
    load: async () => {
      const [{ compileFlow }, { flowTestPaths }] = await Promise.all([
        import('#machines/exams/review-flow.machine.ts'),
        import('#machines/exams/exam-records.model.ts'),
      ]);
      return { machine: compileFlow(flow.definition, flow.flowId), paths: () => flowTestPaths(flow.definition, flow.flowId) as unknown as TestPath[] };
    },
  };
}

function statusOf(error: unknown): number | undefined {
  const e = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } } | null;
  const value = e?.statusCode ?? e?.status ?? e?.response?.status;
  return typeof value === 'number' ? value : undefined;
}

/**
 * /machines and /machines/:machineId: every actor's statechart (issue 9, ARCHITECTURE.md §3).
 * The server decides who may audit: the coverage call needs Permissions.Machines.View, and a
 * refusal shows no diagrams (docs/decisions/0071).
 */
export default function MachinesPage() {
  const { t } = useTranslation('machines');
  const params = useParams<{ machineId?: string }>();
  const [coverage, setCoverage] = useState<CoverageState | { status: 'denied' }>({ status: 'loading' });
  const [flows, setFlows] = useState<Array<CatalogueEntry & { label: string }> | null>(null);
  const selectedId = params.machineId ?? machineCatalogue[0].id;
  const entry = findCatalogueEntry(selectedId) ?? flows?.find((flow) => flow.id === selectedId);

  // Every project's review flows in the caller's scope, drawn beside the fixed machines.
  useEffect(() => {
    let current = true;
    machinesApi.flows().then(
      (list) => current && setFlows(list.map(flowEntry)),
      () => current && setFlows([]),
    );
    return () => {
      current = false;
    };
  }, []);

  const loadCoverage = useCallback(() => {
    let current = true;
    setCoverage({ status: 'loading' });
    machinesApi.coverage().then(
      (reports) => current && setCoverage({ status: 'ready', reports }),
      (error: unknown) => {
        if (!current) return;
        const status = statusOf(error);
        setCoverage(status === 401 || status === 403 ? { status: 'denied' } : { status: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, []);
  useEffect(loadCoverage, [loadCoverage]);

  return (
    <div>
      <PageHeader title={t('title')} description={t('description')} />
      {coverage.status === 'denied' ? (
        <div className={card}>
          <EmptyState title={t('noAccess')} />
        </div>
      ) : coverage.status === 'loading' ? (
        <ListSkeleton />
      ) : (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <nav aria-label={t('list')} className={`${card} ${css({ p: '2' })}`}>
            <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}>
              {machineCatalogue.map((item) => (
                <li key={item.id}>
                  <Link to={`/machines/${item.id}`} className={navLink} aria-current={item.id === selectedId ? 'page' : undefined}>
                    {item.id}
                  </Link>
                </li>
              ))}
            </ul>
            {flows?.length ? (
              <>
                <h2 id="project-flows" className={css({ px: '3', pt: '3', pb: '1', fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted' })}>
                  {t('projectFlows')}
                </h2>
                <ul aria-labelledby="project-flows" className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })} data-testid="project-flows">
                  {flows.map((flow) => (
                    <li key={flow.id}>
                      <Link to={`/machines/${flow.id}`} className={navLink} aria-current={flow.id === selectedId ? 'page' : undefined}>
                        {flow.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </nav>
          {entry ? (
            <MachineView key={entry.id} entry={entry} coverage={coverage} />
          ) : flows === null ? (
            <LoadingState />
          ) : (
            <div className={card}>
              <EmptyState title={t('machineNotFound', { id: selectedId })} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
