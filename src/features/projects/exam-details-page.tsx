import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { examStore } from '#src/app/stores/slices.ts';
import { selectExam } from '#src/app/stores/workspace-selection.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { examsApi, projectsApi, type Exam } from './api/projects-api.ts';
import { ExamRulesEditor } from './components/exam-rules-editor.tsx';
import { HistoryList } from './components/history-list.tsx';

const REASON_MAX = 2000;
const section = css({ p: '4', display: 'grid', gap: '3' });
const heading = css({ fontWeight: 'semibold', fontSize: 'md' });

/** Withdrawing published results needs a reason; it is kept in the exam's history (docs/decisions/0090). */
export function WithdrawResultsDialog({ exam, onClose, onDone }: { exam: Exam; onClose: () => void; onDone: (exam: Exam) => void }) {
  const { t } = useTranslation('projects');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError(t('withdraw.reasonRequired'));
      return;
    }
    setError(null);
    setFailure(null);
    setBusy(true);
    try {
      const { record } = await examsApi.transition(exam.examId, 'exam.withdrawResults', exam.version, reason.trim());
      onDone(record);
    } catch (failed) {
      setFailure(failed);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t('withdraw.title', { name: exam.name })}
      description={t('withdraw.intro')}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      testId="withdraw-results-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" variant="danger" loading={busy} data-testid="withdraw-submit">
            {t('withdraw.submit')}
          </Button>
        </>
      }
    >
      <TextAreaField
        label={t('withdraw.reason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        maxLength={REASON_MAX}
        rows={3}
        hint={t('withdraw.reasonHint')}
        error={error ? [error] : undefined}
        autoFocus
      />
      {failureText ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

/** The status changes the exam machine offers this caller (the server's `actions`), as buttons. */
function ExamStatusActions({ exam, onChanged }: { exam: Exam; onChanged: (exam: Exam) => void }) {
  const { t } = useTranslation('projects');
  const { confirm, element: confirmation } = useConfirm();
  const [withdrawing, setWithdrawing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const events = exam.actions.filter((event) => event !== 'exam.edit');

  const move = async (event: string) => {
    if (event === 'exam.withdrawResults') {
      setWithdrawing(true);
      return;
    }
    if (
      event === 'exam.close' &&
      !(await confirm({
        title: t('examDetails.closeTitle'),
        message: t('examDetails.closeMessage', { name: exam.name }),
        confirmLabel: t('examEvent.exam.close'),
      }))
    )
      return;
    setBusy(event);
    try {
      const { record, toStatus } = await examsApi.transition(exam.examId, event, exam.version);
      void notify.success(t('exams.statusChanged', { name: exam.name, status: t(`examStatus.${toStatus}`, { defaultValue: toStatus }) }));
      onChanged(record);
    } catch (error) {
      void notify.error(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })} data-testid="exam-status-actions">
      {events.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('examDetails.noActions')}</p>
      ) : (
        events.map((event) => (
          <Button
            key={event}
            size="sm"
            variant={event === 'exam.withdrawResults' || event === 'exam.close' ? 'outline' : 'solid'}
            onClick={() => void move(event)}
            loading={busy === event}
            disabled={busy !== null && busy !== event}
            data-testid={`exam-event-${event}`}
          >
            {t(`examEvent.${event}`, { defaultValue: event })}
          </Button>
        ))
      )}
      {withdrawing ? (
        <WithdrawResultsDialog
          exam={exam}
          onClose={() => setWithdrawing(false)}
          onDone={(record) => {
            setWithdrawing(false);
            void notify.success(t('withdraw.done', { name: exam.name }));
            onChanged(record);
          }}
        />
      ) : null}
      {confirmation}
    </div>
  );
}

/**
 * /workspace/exam: the selected exam's details and pass rules (editable while Draft or
 * Scheduled), its status actions (withdrawing results asks for a reason) and its history.
 */
export function ExamDetails({ examId }: { examId: number }) {
  const { t } = useTranslation('projects');
  const [exam, setExam] = useState<Exam | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [changes, setChanges] = useState(0);
  const errorText = useErrorText(error);

  const load = useCallback(() => {
    setError(null);
    return examsApi.get(examId).then(setExam, setError);
  }, [examId]);
  useEffect(() => {
    void load();
  }, [load]);
  const history = useCallback((query: { pageNumber: number; pageSize: number }) => examsApi.history(examId, query), [examId]);

  /** A saved edit or status change: the screen, the selected exam (the bar) and the history follow. */
  const changed = (record: Exam) => {
    setExam(record);
    selectExam({ ...(examStore.getSnapshot().context.selected ?? {}), ...record });
    setChanges((n) => n + 1);
  };

  if (!exam) return error ? <ErrorState message={errorText} onRetry={() => void load()} /> : <LoadingState />;
  return (
    <section aria-labelledby="exam-details-title">
      <PageHeader
        id="exam-details-title"
        title={t('examDetails.title', { name: exam.name })}
        description={t('examDetails.intro')}
        actions={<Badge tone="primary">{t(`examStatus.${exam.status}`, { defaultValue: exam.status })}</Badge>}
      />
      <div className={css({ display: 'grid', gap: '4' })}>
        <section aria-labelledby="exam-status-heading" className={`${card} ${section}`}>
          <h2 id="exam-status-heading" className={heading}>
            {t('examDetails.statusHeading')}
          </h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {exam.updatedBy
              ? t('examDetails.lastChange', { name: exam.updatedBy.name, version: exam.version })
              : t('examDetails.version', { version: exam.version })}
          </p>
          <ExamStatusActions exam={exam} onChanged={changed} />
        </section>
        <section aria-labelledby="exam-rules-heading" className={`${card} ${section}`}>
          <h2 id="exam-rules-heading" className={heading}>
            {t('examDetails.rulesHeading')}
          </h2>
          {/* Keyed by version: loading their version restarts the form from the stored record. */}
          <ExamRulesEditor key={exam.version} exam={exam} onSaved={changed} onReload={() => void load()} />
        </section>
        <section aria-labelledby="exam-history-heading" className={card}>
          <h2 id="exam-history-heading" className={`${heading} ${css({ p: '4', pb: '0' })}`}>
            {t('history.examHeading')}
          </h2>
          <HistoryList
            load={history}
            refreshKey={changes}
            statusKey="examStatus"
            caption={t('history.examCaption', { name: exam.name })}
            testId="exam-history"
          />
        </section>
      </div>
    </section>
  );
}

/** /workspace/history: what happened to the selected project (who, when, from → to, reason, edits). */
export function ProjectHistory({ projectId, name }: { projectId: number; name: string }) {
  const { t } = useTranslation('projects');
  const history = useCallback((query: { pageNumber: number; pageSize: number }) => projectsApi.history(projectId, query), [projectId]);
  return (
    <section aria-labelledby="project-history-title">
      <PageHeader id="project-history-title" title={t('history.projectTitle', { name })} description={t('sliceHint.history')} />
      <div className={card}>
        <HistoryList load={history} refreshKey={0} statusKey="status" caption={t('history.projectCaption', { name })} testId="project-history" />
      </div>
    </section>
  );
}
