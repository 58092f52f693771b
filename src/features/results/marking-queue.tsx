import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { ExamPicker, useExamChoice } from './components/exam-picker.tsx';
import { markingApi, type MarkingTask } from './api/results-api.ts';

/** One answer to mark: the question, the rubric, the answer (anonymised: the script id only), marks and a comment. */
function MarkForm({ task, onDone }: { task: MarkingTask; onDone: (message: string) => void }) {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const format = useFormat();
  const [marks, setMarks] = useState('');
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const value = Number(marks);
  const valid = marks.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= task.maxMarks;
  return (
    <form
      className={`${card} ${css({ p: '4', display: 'grid', gap: '3' })}`}
      data-testid={`task-${task.taskId}`}
      aria-label={t('marking.taskLabel', { script: task.scriptId.slice(0, 8), number: task.itemNumber, round: t(`marking.round${task.round}`) })}
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) return;
        setBusy(true);
        setFailure(null);
        markingApi
          .mark(task.taskId, value, comment)
          .then(
            (answer) => onDone(t(`marking.state.${answer.state}`)),
            (error: unknown) => setFailure(error ?? new Error('failed')),
          )
          .finally(() => setBusy(false));
      }}
    >
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
        <Badge>{t('marking.script', { script: task.scriptId.slice(0, 8) })}</Badge>
        <Badge>{t('question', { number: task.itemNumber })}</Badge>
        <Badge tone={task.round === 3 ? 'warning' : 'neutral'}>{t(`marking.round${task.round}`)}</Badge>
      </div>
      <p className={css({ fontWeight: 'semibold' })}>{task.stem}</p>
      {task.rubric ? (
        <p>
          <strong>{t('marking.rubric')}:</strong> {task.rubric}
        </p>
      ) : null}
      <blockquote className={css({ borderInlineStartWidth: '3px', borderColor: 'border', ps: '3', whiteSpace: 'pre-wrap' })} data-testid="task-answer">
        {task.answer || t('sheet.notAnswered')}
      </blockquote>
      {task.earlierMarks.length ? (
        <p data-testid="earlier-marks">
          {t('marking.earlier')}:{' '}
          {task.earlierMarks.map((m) => `${t(`marking.round${m.round}`)} ${format.number(m.marks)}${m.comment ? ` (“${m.comment}”)` : ''}`).join(' · ')}
        </p>
      ) : null}
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-end' })}>
        <TextField
          label={t('marking.marks', { max: format.number(task.maxMarks) })}
          type="number"
          min={0}
          max={task.maxMarks}
          step={0.25}
          value={marks}
          onChange={(e) => setMarks(e.target.value)}
          required
          data-testid="task-marks"
        />
      </div>
      <TextAreaField label={t('marking.comment')} value={comment} onChange={(e) => setComment(e.target.value)} rows={2} data-testid="task-comment" />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failureText}
        </p>
      ) : null}
      <div>
        <Button type="submit" loading={busy} disabled={!valid} data-testid="task-submit">
          {t('marking.save')}
        </Button>
      </div>
    </form>
  );
}

/** /results?view=marking — the evaluator's (and the moderator's third-mark) queue of an exam, anonymised (issue 20). */
function MarkingPage() {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const choice = useExamChoice();
  const { examId } = choice;
  const [tasks, setTasks] = useState<MarkingTask[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const shownError = error ?? choice.failure;
  const errorText = useErrorText(shownError);
  const load = useCallback(() => {
    if (!examId) return;
    setError(null);
    markingApi.queue(Number(examId)).then(setTasks, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, [examId]);
  useEffect(() => {
    setTasks(null);
    load();
  }, [load]);
  return (
    <section>
      <PageHeader title={t('marking.title')} description={t('marking.description')} actions={<Link to="/results?view=console">{t('console.title')}</Link>} />
      <ExamPicker choice={choice} testId="marking-exam" />
      {notice ? (
        <p role="status" className={css({ mb: '3' })}>
          {notice}
        </p>
      ) : null}
      {shownError ? (
        <ErrorState message={errorText} onRetry={load} />
      ) : !examId ? (
        <EmptyState title={t('chooseExamFirst')} />
      ) : !tasks ? (
        <LoadingState label={t('loading')} />
      ) : tasks.length === 0 ? (
        <EmptyState title={t('marking.empty')} />
      ) : (
        <div className={css({ display: 'grid', gap: '4' })}>
          {tasks.map((task) => (
            <MarkForm
              key={task.taskId}
              task={task}
              onDone={(message) => {
                setNotice(message);
                load();
              }}
            />
          ))}
        </div>
      )}
    </section>
  );
}

/** The evaluators' queue, for holders of Exams.View (the exam permission is the server's to check). */
export function GatedMarkingPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <MarkingPage />
    </PermissionGate>
  );
}
