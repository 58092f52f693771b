import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { paperStatusNames, type PaperStatus } from '#machines/papers/paper-flow.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { examPermissionsStore, examStore } from '#src/app/stores/slices.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useItemWorkspace } from '#src/features/items/index.ts';
import { loadExamPermissions, NoProjectState } from '#src/features/projects/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { papersApi, type PaperRecord } from './api/papers-api.ts';
import { PaperFormDialog } from './components/paper-form-dialog.tsx';
import { ChooseExamState } from './components/choose-exam-state.tsx';
import { statusTone } from './lib/paper-errors.ts';

const link = css({ color: 'primary.dark', textDecoration: 'underline', fontFamily: 'mono' });

/** Whether the caller may create papers here: a paper setter or the project admin (the server decides too). */
export function useCanSetPapers(): boolean {
  const held = useStoreValue(examPermissionsStore, (s) => s.context.permissions);
  return held.includes('PaperSetter') || held.includes('ProjectAdmin');
}

/**
 * The papers of the selected exam (issue 17, docs/decisions/0142): text search and status in the
 * URL, each paper's sections, marks, sets and status, and "New paper". Opening a paper selects it
 * (the workspace bar's paper, and `ExamId: exam&paper` on its calls).
 */
function PapersList() {
  const { t } = useTranslation('papers');
  const navigate = useNavigate();
  const workspace = useItemWorkspace();
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const canCreate = useCanSetPapers();
  const [params, setParams] = useSearchParams();
  const keyword = params.get('q') ?? '';
  const status = (paperStatusNames as readonly string[]).includes(params.get('status') ?? '') ? (params.get('status') as PaperStatus) : '';
  const [papers, setPapers] = useState<PaperRecord[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const errorText = useErrorText(error);

  const load = useCallback(() => {
    setError(null);
    return papersApi.list().then(setPapers, (failure: unknown) => {
      setPapers(null);
      setError(failure ?? new Error('failed'));
    });
  }, []);
  useEffect(() => {
    void load();
    // Who may create papers here: the exam permissions, read again (they are not kept over a reload).
    void loadExamPermissions();
  }, [load]);

  const setParam = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  const shown = useMemo(() => {
    const words = keyword.trim().toLowerCase();
    return (papers ?? []).filter(
      (p) => (!status || p.status === status) && (!words || p.code.toLowerCase().includes(words) || p.title.toLowerCase().includes(words)),
    );
  }, [papers, keyword, status]);

  const columns: Column<PaperRecord>[] = [
    {
      key: 'code',
      header: t('field.code'),
      cell: (p) => (
        <Link to={`/workspace/papers/${p.paperId}`} className={link} data-testid={`paper-link-${p.code}`}>
          {p.code}
        </Link>
      ),
    },
    { key: 'title', header: t('field.title'), cell: (p) => p.title },
    { key: 'sections', header: t('list.sections'), cell: (p) => p.sections.length },
    {
      key: 'marks',
      header: t('field.totalMarks'),
      cell: (p) => t('list.marksOf', { computed: p.sections.reduce((sum, s) => sum + s.marks, 0), declared: p.totalMarks }),
    },
    { key: 'duration', header: t('field.duration'), cell: (p) => t('list.minutes', { count: p.durationMinutes }) },
    { key: 'mode', header: t('field.mode'), cell: (p) => t(`mode.${p.mode}`) },
    { key: 'sets', header: t('list.sets'), cell: (p) => p.setCount },
    {
      key: 'status',
      header: t('field.status'),
      cell: (p) => (
        <Badge tone={statusTone(p.status)} testId={`paper-status-${p.code}`}>
          {t(`status.${p.status}`)}
        </Badge>
      ),
    },
  ];

  const filtered = Boolean(keyword || status);
  return (
    <section aria-labelledby="papers-title" className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        id="papers-title"
        title={t('list.title', { exam: String(exam?.name ?? '') })}
        description={t('list.intro')}
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)} data-testid="new-paper">
              {t('list.new')}
            </Button>
          ) : null
        }
      />
      <div className={card}>
        <div
          role="search"
          aria-label={t('list.filters')}
          className={css({ p: '4', display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', md: '2fr 1fr' } })}
        >
          <SearchInput label={t('list.search')} value={keyword} onChange={(e) => setParam('q', e.target.value)} data-testid="papers-search" />
          <SelectField
            label={t('field.status')}
            value={status}
            placeholder={t('list.anyStatus')}
            onValueChange={(value) => setParam('status', value)}
            options={paperStatusNames.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            testId="papers-status"
          />
        </div>
        {error ? (
          <ErrorState message={errorText ?? t('list.failed')} onRetry={() => void load()} />
        ) : papers === null ? (
          <LoadingState />
        ) : shown.length === 0 ? (
          <EmptyState
            title={filtered ? t('list.noneMatch') : t('list.none')}
            action={
              !filtered && canCreate ? (
                <Button variant="outline" onClick={() => setCreating(true)}>
                  {t('list.new')}
                </Button>
              ) : undefined
            }
          >
            {filtered ? t('list.noneMatchHint') : canCreate ? t('list.noneHint') : t('list.noneHintReader')}
          </EmptyState>
        ) : (
          <DataTable caption={t('list.caption')} columns={columns} rows={shown} rowKey={(p) => p.paperId} testId="papers-table" />
        )}
      </div>
      {creating ? (
        <PaperFormDialog
          paper={null}
          languages={workspace.languages}
          onClose={() => setCreating(false)}
          onSave={async (body) => {
            const created = await papersApi.create(body);
            setCreating(false);
            void notify.success(t('form.created', { code: created.code }));
            navigate(`/workspace/papers/${created.paperId}`);
          }}
        />
      ) : null}
    </section>
  );
}

function PapersPage() {
  const workspace = useItemWorkspace();
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  if (!workspace.project) return <NoProjectState />;
  if (!exam) return <ChooseExamState />;
  return <PapersList key={String(exam.examId)} />;
}

export default function GatedPapersPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <PapersPage />
    </PermissionGate>
  );
}
