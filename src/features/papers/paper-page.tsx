import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import type { SaveSectionRequest } from '#machines/papers/section-builder.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { examStore } from '#src/app/stores/slices.ts';
import { clearRecord, dropRecord, failRecord, sectionKey, storeRecord } from '#src/app/stores/record-slices.ts';
import { selectedPaper, selectPaper } from '#src/app/stores/workspace-selection.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { Tabs } from '#src/components/ui/tabs.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useItemWorkspace, type ItemWorkspace } from '#src/features/items/index.ts';
import { NoProjectState } from '#src/features/projects/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { papersApi, type HistoryEntry, type PaperRecord, type PinnedItem, type SectionRecord } from './api/papers-api.ts';
import { BlueprintView } from './components/blueprint-view.tsx';
import { ChooseExamState } from './components/choose-exam-state.tsx';
import { FlowActions, FlowSteps } from './components/flow-actions.tsx';
import { PaperFormDialog } from './components/paper-form-dialog.tsx';
import { SectionEditor, sectionBody } from './components/section-editor.tsx';
import { SetsPanel } from './components/sets-panel.tsx';
import { paperCallFailure, statusTone, type PaperCallFailure } from './lib/paper-errors.ts';

export const PAPER_TABS = ['sections', 'blueprint', 'sets', 'analysis', 'history'] as const;
export type PaperTab = (typeof PAPER_TABS)[number];
/** What a caller who may not see the paper's content is shown (docs/decisions/0221). */
const OUTLINE_TABS: readonly PaperTab[] = ['sections', 'history'];

const link = css({ color: 'primary.dark', textDecoration: 'underline' });
// The item analysis of issue 20 comes with its own chunk when its tab is opened.
const ItemAnalysisPanel = lazy(() => import('#src/features/results/index.ts').then((m) => ({ default: m.ItemAnalysisPanel })));

/** The paper's sections in order, each with its rule and marks; a Draft paper's can be added, edited and removed. */
function SectionsPanel({
  paper,
  editable,
  labels,
  categoryName,
  moved,
  onEdit,
  onRemove,
  onMove,
  onAdd,
}: {
  paper: PaperRecord;
  editable: boolean;
  labels: ReadonlyMap<string, string>;
  categoryName: (categoryId: number) => string;
  /** The section just moved (its button keeps the focus), or null. */
  moved: { sectionId: number; direction: 'up' | 'down' } | null;
  onEdit: (section: SectionRecord) => void;
  onRemove: (section: SectionRecord) => void;
  /** Moves the section at `from` to `to` (0-based positions in the shown order). */
  onMove: (from: number, to: number) => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation('papers');
  const sections = [...paper.sections].sort((a, b) => a.order - b.order);
  const panel = useRef<HTMLDivElement>(null);
  // After a move the focus follows the moved section's button (the other one at either end).
  useEffect(() => {
    if (!moved) return;
    const index = sections.findIndex((s) => s.sectionId === moved.sectionId);
    if (index < 0) return;
    const button = (direction: string) => panel.current?.querySelector<HTMLButtonElement>(`[data-testid="move-section-${direction}-${index + 1}"]`);
    const wanted = button(moved.direction);
    (wanted && !wanted.disabled ? wanted : button(moved.direction === 'up' ? 'down' : 'up'))?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a move lands (the paper's version moves with it)
  }, [moved, paper.version]);
  return (
    <div className={css({ display: 'grid', gap: '3' })} data-testid="sections-panel" ref={panel}>
      {sections.length === 0 ? (
        <EmptyState title={t('builder.noSections')} action={editable ? <Button onClick={onAdd}>{t('builder.addSection')}</Button> : undefined}>
          {editable ? t('builder.noSectionsHint') : t('builder.noSectionsReader')}
        </EmptyState>
      ) : (
        <ol className={css({ display: 'grid', gap: '3', listStyle: 'none', p: 0, m: 0 })}>
          {sections.map((section, index) => (
            <li
              key={section.sectionId}
              className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '3', display: 'grid', gap: '2' })}
              data-testid={`section-${index + 1}`}
            >
              <div className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
                <h2 className={css({ fontWeight: 'semibold', flex: '1' })}>{section.title}</h2>
                <Badge tone="info">{section.rule.kind === 'fixed' ? t('builder.ruleFixedShort') : t('builder.ruleDrawShort')}</Badge>
                {editable ? (
                  <>
                    {sections.length > 1 ? (
                      <>
                        <Button
                          size="sm"
                          variant="ghost"
                          disabled={index === 0}
                          onClick={() => onMove(index, index - 1)}
                          aria-label={t('builder.moveSectionUpNamed', { title: section.title })}
                          data-testid={`move-section-up-${index + 1}`}
                        >
                          {t('builder.moveUp')}
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          disabled={index === sections.length - 1}
                          onClick={() => onMove(index, index + 1)}
                          aria-label={t('builder.moveSectionDownNamed', { title: section.title })}
                          data-testid={`move-section-down-${index + 1}`}
                        >
                          {t('builder.moveDown')}
                        </Button>
                      </>
                    ) : null}
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => onEdit(section)}
                      aria-label={t('builder.editNamed', { title: section.title })}
                      data-testid={`edit-section-${index + 1}`}
                    >
                      {t('builder.edit')}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => onRemove(section)} aria-label={t('builder.removeSectionNamed', { title: section.title })}>
                      {t('builder.remove')}
                    </Button>
                  </>
                ) : null}
              </div>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                {[
                  t('builder.sectionFacts', { count: section.itemCount, each: section.marksPerItem, marks: section.marks }),
                  section.attemptAny ? t('builder.attemptAnyOf', { n: section.attemptAny, of: section.itemCount }) : null,
                  section.timeLimitMinutes ? t('builder.timeLimitOf', { count: section.timeLimitMinutes }) : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              {!paper.contentVisible ? null : section.rule.kind === 'fixed' ? (
                <ol className={css({ fontSize: 'sm', ps: '5', listStyle: 'decimal' })}>
                  {(section.rule.items ?? []).map((id) => (
                    <li key={id}>{labels.get(String(id)) ?? `#${id}`}</li>
                  ))}
                </ol>
              ) : (
                <ul className={css({ fontSize: 'sm', ps: '5', listStyle: 'disc' })} data-testid={`section-draws-${index + 1}`}>
                  {(section.rule.draws ?? []).map((d) => (
                    <li key={`${d.categoryId}|${d.difficulty}`}>
                      {t('builder.drawRuleText', { count: d.count, difficulty: t(`difficulty.${d.difficulty}`), category: categoryName(d.categoryId) })}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      {editable && sections.length > 0 ? (
        <div>
          <Button onClick={onAdd} data-testid="add-section">
            {t('builder.addSection')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function HistoryPanel({ paper }: { paper: PaperRecord }) {
  const { t } = useTranslation('papers');
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    papersApi.history(paper.paperId).then(setEntries, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, [paper.paperId]);
  useEffect(() => {
    load();
  }, [load, paper.version]);
  if (error) return <ErrorState message={errorText ?? t('history.failed')} onRetry={load} />;
  if (!entries) return <LoadingState />;
  if (entries.length === 0) return <EmptyState title={t('history.none')} />;
  return (
    <ol className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0, m: 0 })} data-testid="paper-history">
      {[...entries].reverse().map((entry, index) => (
        <li key={`${entry.at}-${index}`} className={css({ borderBottomWidth: '1px', borderColor: 'border', pb: '2' })}>
          <p>
            <strong>{t(`history.event.${entry.event.replace('paper.', '')}`, { defaultValue: entry.event })}</strong>
            {entry.toStatus ? ` → ${t(`status.${entry.toStatus}`, { defaultValue: entry.toStatus })}` : ''}
          </p>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {t('history.byAt', { name: entry.by?.name ?? t('history.someone'), at: new Date(entry.at).toLocaleString() })}
          </p>
          {entry.reason ? <p className={css({ fontSize: 'sm' })}>{t('history.reason', { reason: entry.reason })}</p> : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * One paper (issue 17, docs/decisions/0142): its flow, the builder of its sections, the
 * blueprint, its sets (generate, compare, preview, print) and its history. Opening it selects it,
 * so its calls carry `ExamId: exam&paper`. An edit refused because the paper moved on or was
 * changed first (409) says so and reloads it.
 */
function PaperScreen({ paperId, workspace }: { paperId: number; workspace: ItemWorkspace }) {
  const { t } = useTranslation('papers');
  const [params, setParams] = useSearchParams();
  const wantedTab: PaperTab = (PAPER_TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as PaperTab) : 'sections';
  const [paper, setPaper] = useState<PaperRecord | null>(null);
  const [pinned, setPinned] = useState<PinnedItem[]>([]);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const [conflict, setConflict] = useState<PaperCallFailure | null>(null);
  const [editing, setEditing] = useState<SectionRecord | 'new' | null>(null);
  const [editingDetails, setEditingDetails] = useState(false);
  const [moved, setMoved] = useState<{ sectionId: number; direction: 'up' | 'down' } | null>(null);
  const moving = useRef(false);
  const { confirm, element: confirmation } = useConfirm();

  const adopt = useCallback((record: PaperRecord) => {
    setPaper(record);
    selectPaper({ paperId: record.paperId, code: record.code, title: record.title, status: record.status });
    // The paper open in the builder, as the server last answered it (docs/decisions/0204).
    storeRecord('paperWorkspace', {
      paperId: record.paperId,
      code: record.code,
      title: record.title,
      status: record.status,
      version: record.version,
      sectionCount: record.sections.length,
      setCount: record.setCount,
    });
    if (record.contentVisible) papersApi.pinnedItems(record.paperId).then(setPinned, () => undefined);
  }, []);
  const load = useCallback(() => {
    setError(null);
    if (selectedPaper()?.paperId !== paperId) selectPaper({ paperId });
    return papersApi.get(paperId).then(adopt, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, [paperId, adopt]);
  useEffect(() => {
    void load();
  }, [load]);

  const labels = useMemo(() => new Map(pinned.map((p) => [p.versionId, `${p.code} · ${p.stemText}`])), [pinned]);
  const onConflict = useCallback(
    (failure: PaperCallFailure) => {
      setConflict(failure);
      void load();
    },
    [load],
  );

  const save = useCallback(
    async (request: SaveSectionRequest) => {
      if (!paper) throw new Error('no paper');
      const body = sectionBody(request.draft);
      let answer: PaperRecord;
      try {
        answer =
          request.sectionId === null
            ? await papersApi.addSection(paper.paperId, body)
            : await papersApi.editSection(paper.paperId, request.sectionId, { ...body, version: request.version ?? 1 });
      } catch (failure) {
        failRecord('section');
        throw failure;
      }
      const stored =
        request.sectionId === null
          ? [...answer.sections].sort((a, b) => b.sectionId - a.sectionId)[0]
          : answer.sections.find((s) => s.sectionId === request.sectionId)!;
      adopt(answer);
      storeRecord('section', { ...stored, paperId: answer.paperId });
      return { sectionId: stored.sectionId, version: stored.version };
    },
    [paper, adopt],
  );

  if (error) return <ErrorState message={errorText ?? t('paper.failed')} onRetry={() => void load()} />;
  if (!paper) return <LoadingState />;
  // The item analysis (issue 20) needs sets: candidates sit them.
  const tabs = paper.contentVisible ? PAPER_TABS.filter((x) => x !== 'analysis' || paper.setCount > 0) : OUTLINE_TABS;
  const tab: PaperTab = tabs.includes(wantedTab) ? wantedTab : 'sections';
  const editable = paper.status === 'Draft' && paper.actions.includes('paper.edit');
  const sectionMarks = paper.sections.reduce((sum, s) => sum + s.marks, 0);

  const removeSection = async (section: SectionRecord) => {
    if (
      !(await confirm({
        title: t('builder.removeSectionTitle'),
        message: t('builder.removeSectionMessage', { title: section.title }),
        confirmLabel: t('builder.remove'),
      }))
    )
      return;
    try {
      adopt(await papersApi.removeSection(paper.paperId, section.sectionId));
      dropRecord('section', sectionKey(paper.paperId, section.sectionId));
      void notify.success(t('builder.sectionRemoved', { title: section.title }));
    } catch (failure) {
      const refused = await paperCallFailure(failure);
      if (refused.conflict) onConflict(refused);
      else void notify.error(failure);
    }
  };

  const moveSection = async (from: number, to: number) => {
    const ordered = [...paper.sections].sort((a, b) => a.order - b.order);
    const [section] = ordered.splice(from, 1);
    ordered.splice(to, 0, section);
    if (moving.current) return;
    moving.current = true;
    try {
      adopt(
        await papersApi.reorderSections(
          paper.paperId,
          ordered.map((s) => s.sectionId),
          paper.version,
        ),
      );
      setMoved({ sectionId: section.sectionId, direction: to < from ? 'up' : 'down' });
      void notify.success(t('builder.sectionMoved', { title: section.title, position: to + 1, count: ordered.length }));
    } catch (failure) {
      const refused = await paperCallFailure(failure);
      if (refused.conflict) onConflict(refused);
      else void notify.error(failure);
    } finally {
      moving.current = false;
    }
  };
  const categoryName = (categoryId: number) => workspace.categories.find((c) => String(c.categoryId) === String(categoryId))?.name ?? `#${categoryId}`;

  return (
    <section aria-labelledby="paper-title" className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        id="paper-title"
        title={t('paper.title', { code: paper.code, title: paper.title })}
        description={
          <span className={css({ display: 'inline-flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
            <Badge tone={statusTone(paper.status)} testId="paper-status">
              {t(`status.${paper.status}`)}
            </Badge>
            <span>
              {t('paper.facts', {
                minutes: paper.durationMinutes,
                marks: paper.totalMarks,
                computed: sectionMarks,
                mode: t(`mode.${paper.mode}`),
                navigation: t(`navigation.${paper.navigation}`),
              })}
            </span>
            {paper.calculator ? <Badge tone="neutral">{t('paper.calculator')}</Badge> : null}
          </span>
        }
        actions={
          <div className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
            <Link to="/workspace/papers" className={link}>
              {t('paper.allPapers')}
            </Link>
            {editable ? (
              <Button variant="outline" onClick={() => setEditingDetails(true)} data-testid="edit-paper">
                {t('paper.editDetails')}
              </Button>
            ) : null}
          </div>
        }
      />
      {conflict ? (
        <div
          role="alert"
          className={css({
            borderWidth: '1px',
            borderColor: 'warning.main',
            bg: 'warning.lighter',
            color: 'warning.darker',
            borderRadius: 'md',
            p: '3',
            display: 'grid',
            gap: '1',
          })}
          data-testid={`paper-conflict-${conflict.conflict ?? 'other'}`}
        >
          <p className={css({ fontWeight: 'semibold' })}>
            {conflict.conflict === 'locked' ? t('conflict.locked', { status: t(`status.${conflict.currentStatus ?? paper.status}`) }) : t('conflict.stale')}
          </p>
          {conflict.messages.map((m) => (
            <p key={m}>{m}</p>
          ))}
          <div>
            <Button size="sm" variant="ghost" onClick={() => setConflict(null)}>
              {t('conflict.dismiss')}
            </Button>
          </div>
        </div>
      ) : null}
      <div className={`${card} ${css({ p: '4', display: 'grid', gap: '3' })}`}>
        <FlowSteps paper={paper} />
        {paper.status === 'Locked' && paper.lockedBy ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {t('paper.lockedBy', { name: paper.lockedBy.name, at: new Date(paper.lockedAt ?? '').toLocaleString() })}
          </p>
        ) : null}
        {!editable && paper.status !== 'Draft' ? <p className={css({ fontSize: 'sm' })}>{t(`paper.readOnly.${paper.status}`)}</p> : null}
        {paper.contentVisible ? null : (
          <p role="note" className={css({ fontSize: 'sm' })} data-testid="paper-content-hidden">
            {t('paper.contentHidden')}
          </p>
        )}
        <FlowActions
          paper={paper}
          onChanged={(next) => {
            setConflict(null);
            adopt(next);
          }}
          onConflict={onConflict}
        />
      </div>
      <div className={`${card} ${css({ p: '4' })}`}>
        <Tabs<PaperTab>
          label={t('paper.tabs')}
          value={tab}
          onChange={(next) =>
            setParams(
              (current) => {
                const out = new URLSearchParams(current);
                out.set('tab', next);
                return out;
              },
              { replace: true },
            )
          }
          tabs={tabs.map((value) => ({ value, label: t(`tab.${value}`) }))}
        >
          {(value) =>
            value === 'sections' ? (
              <SectionsPanel
                paper={paper}
                editable={editable}
                labels={labels}
                categoryName={categoryName}
                moved={moved}
                onEdit={(section) => {
                  storeRecord('section', { ...section, paperId: paper.paperId });
                  setEditing(section);
                }}
                onRemove={(s) => void removeSection(s)}
                onMove={(from, to) => void moveSection(from, to)}
                onAdd={() => setEditing('new')}
              />
            ) : value === 'blueprint' ? (
              <BlueprintView paper={paper} labels={labels} />
            ) : value === 'sets' ? (
              <SetsPanel
                paper={paper}
                languages={workspace.languages}
                labels={labels}
                onGenerated={() => {
                  // New sets replace the earlier ones: a held set is gone.
                  clearRecord('set');
                  void load();
                }}
                onConflict={onConflict}
              />
            ) : value === 'analysis' ? (
              <Suspense fallback={<LoadingState />}>
                <ItemAnalysisPanel paperId={paper.paperId} />
              </Suspense>
            ) : (
              <HistoryPanel paper={paper} />
            )
          }
        </Tabs>
      </div>
      {editing ? (
        <SectionEditor
          section={editing === 'new' ? null : editing}
          labels={labels}
          workspace={workspace}
          save={save}
          onClose={() => setEditing(null)}
          onSaved={() => {
            void notify.success(t('builder.sectionSaved'));
            setEditing(null);
          }}
          onLocked={() => void load()}
        />
      ) : null}
      {editingDetails ? (
        <PaperFormDialog
          paper={paper}
          languages={workspace.languages}
          onClose={() => setEditingDetails(false)}
          onSave={async (body) => {
            try {
              adopt(await papersApi.edit(paper.paperId, { ...body, version: paper.version }));
              setEditingDetails(false);
              void notify.success(t('form.saved', { code: body.code }));
            } catch (failure) {
              const refused = await paperCallFailure(failure);
              if (refused.conflict) {
                setEditingDetails(false);
                onConflict(refused);
                return;
              }
              throw failure;
            }
          }}
        />
      ) : null}
      {confirmation}
    </section>
  );
}

function PaperPage() {
  const { t } = useTranslation('papers');
  const params = useParams();
  const workspace = useItemWorkspace();
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const paperId = Number(params.paperId);
  if (!workspace.project) return <NoProjectState />;
  if (!exam) return <ChooseExamState />;
  if (!Number.isSafeInteger(paperId) || paperId < 1) return <EmptyState title={t('paper.notFound')} />;
  return <PaperScreen key={paperId} paperId={paperId} workspace={workspace} />;
}

export default function GatedPaperPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <PaperPage />
    </PermissionGate>
  );
}
