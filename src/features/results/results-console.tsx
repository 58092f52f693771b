import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { ExamPicker, useExamChoice } from './components/exam-picker.tsx';
import { ResultSettingsDialog } from './components/result-settings-dialog.tsx';
import { markingApi, type ExamResults, type MarkingProgress } from './api/results-api.ts';

const cell = css({ px: '2', py: '1.5', textAlign: 'start', borderBottomWidth: '1px', borderColor: 'border' });

/** Shift or scale one evaluator's marks, with a reason, after seeing their distribution against the others. */
function ModerateDialog({
  examId,
  evaluator,
  overall,
  onClose,
  onDone,
}: {
  examId: number;
  evaluator: MarkingProgress['byEvaluator'][number];
  overall: MarkingProgress['overall'];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const format = useFormat();
  const [kind, setKind] = useState<'shift' | 'scale'>('shift');
  const [value, setValue] = useState('1');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const pct = (x: number) => format.number(x * 100, { maximumFractionDigits: 1 });
  return (
    <Dialog
      title={t('moderation.title', { name: evaluator.name })}
      description={t('moderation.compare', { mean: pct(evaluator.mean), sd: pct(evaluator.sd), allMean: pct(overall.mean), allSd: pct(overall.sd) })}
      onClose={onClose}
      busy={busy}
      testId="moderate-dialog"
      onSubmit={() => {
        if (!reason.trim() || !Number.isFinite(Number(value))) return;
        setBusy(true);
        setFailure(null);
        markingApi
          .moderate({ examId, markerId: evaluator.markerId, kind, value: Number(value), reason: reason.trim() })
          .then(
            (a) => onDone(t('moderation.done', { marks: a.adjusted, results: a.results })),
            (error: unknown) => setFailure(error ?? new Error('failed')),
          )
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('reevaluation.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={!reason.trim()} data-testid="moderate-confirm">
            {t('moderation.apply')}
          </Button>
        </>
      }
    >
      <ChoiceGroup
        title={t('moderation.kind')}
        name="moderation-kind"
        value={kind}
        onChange={setKind}
        options={[
          { value: 'shift', label: t('moderation.shift') },
          { value: 'scale', label: t('moderation.scale') },
        ]}
      />
      <TextField
        label={kind === 'shift' ? t('moderation.shiftBy') : t('moderation.scaleBy')}
        type="number"
        step={kind === 'shift' ? 0.25 : 0.05}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        required
      />
      <TextAreaField label={t('moderation.reason')} value={reason} onChange={(e) => setReason(e.target.value)} required rows={3} />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

/** /results?view=console — an exam's results, marking progress per evaluator and item, moderation and publication (issue 20). */
export function ResultsConsole() {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const format = useFormat();
  const choice = useExamChoice();
  const { examId } = choice;
  const [results, setResults] = useState<ExamResults | null>(null);
  const [progress, setProgress] = useState<MarkingProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [moderating, setModerating] = useState<MarkingProgress['byEvaluator'][number] | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [editingSettings, setEditingSettings] = useState(false);
  const shownError = error ?? choice.failure;
  const errorText = useErrorText(shownError);
  const load = useCallback(() => {
    if (!examId) return;
    setError(null);
    Promise.all([markingApi.results(Number(examId)), markingApi.progress(Number(examId))]).then(
      ([r, p]) => {
        setResults(r);
        setProgress(p);
      },
      (failure: unknown) => setError(failure ?? new Error('failed')),
    );
  }, [examId]);
  useEffect(() => {
    setResults(null);
    setProgress(null);
    load();
  }, [load]);
  const publishable = (results?.counts.Provisional ?? 0) + (results?.counts.Moderated ?? 0);
  return (
    <section>
      <PageHeader
        title={t('console.title')}
        description={t('console.description')}
        actions={
          <>
            <Link to="/results?view=marking">{t('marking.title')}</Link>
            {results ? (
              <Button variant="outline" onClick={() => setEditingSettings(true)} data-testid="result-settings-open">
                {t('settings.title')}
              </Button>
            ) : null}
            {results ? (
              <Button
                loading={publishing}
                disabled={!publishable}
                data-testid="publish-results"
                onClick={() => {
                  setPublishing(true);
                  markingApi
                    .publish(Number(examId))
                    .then((a) => {
                      setNotice(t('console.published', { count: a.published, marking: a.stillMarking }));
                      load();
                    }, setError)
                    .finally(() => setPublishing(false));
                }}
              >
                {t('console.publish', { count: publishable })}
              </Button>
            ) : null}
          </>
        }
      />
      <ExamPicker choice={choice} testId="console-exam" />
      {notice ? (
        <p role="status" className={css({ mb: '3' })}>
          {notice}
        </p>
      ) : null}
      {shownError ? (
        <ErrorState message={errorText} onRetry={load} />
      ) : !examId ? (
        <EmptyState title={t('chooseExamFirst')} />
      ) : !results || !progress ? (
        <LoadingState label={t('loading')} />
      ) : (
        <div className={css({ display: 'grid', gap: '5' })}>
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })} data-testid="result-counts">
            {Object.entries(results.counts).map(([status, n]) => (
              <Badge key={status}>
                {t(`status.${status}`)}: {format.number(n)}
              </Badge>
            ))}
            {Object.keys(results.counts).length === 0 ? <p>{t('console.noResults')}</p> : null}
          </div>
          <div className={card}>
            <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', p: '3' })}>{t('console.byEvaluator')}</h2>
            {progress.byEvaluator.length === 0 ? (
              <p className={css({ p: '3' })}>{t('console.noMarks')}</p>
            ) : (
              <table className={css({ width: '100%', borderCollapse: 'collapse' })} data-testid="progress-evaluators">
                <thead>
                  <tr>
                    <th className={cell}>{t('console.evaluator')}</th>
                    <th className={cell}>{t('console.marked')}</th>
                    <th className={cell}>{t('console.mean')}</th>
                    <th className={cell}>{t('console.sd')}</th>
                    <th className={cell}>
                      <span className={css({ srOnly: true })}>{t('console.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {progress.byEvaluator.map((e) => (
                    <tr key={e.markerId}>
                      <td className={cell}>{e.name}</td>
                      <td className={cell}>{format.number(e.marked)}</td>
                      <td className={cell}>{format.number(e.mean * 100, { maximumFractionDigits: 1 })} %</td>
                      <td className={cell}>{format.number(e.sd * 100, { maximumFractionDigits: 1 })} %</td>
                      <td className={cell}>
                        <Button variant="ghost" onClick={() => setModerating(e)} data-testid={`moderate-${e.markerId}`}>
                          {t('moderation.open')}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
          <div className={card}>
            <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', p: '3' })}>{t('console.byItem')}</h2>
            {progress.byItem.length === 0 ? (
              <p className={css({ p: '3' })}>{t('console.noMarking')}</p>
            ) : (
              <table className={css({ width: '100%', borderCollapse: 'collapse' })} data-testid="progress-items">
                <thead>
                  <tr>
                    <th className={cell}>{t('sheet.number')}</th>
                    <th className={cell}>{t('console.marked')}</th>
                    <th className={cell}>{t('console.thirdMarker')}</th>
                  </tr>
                </thead>
                <tbody>
                  {progress.byItem.map((i) => (
                    <tr key={i.itemNumber}>
                      <td className={cell}>{t('question', { number: i.itemNumber })}</td>
                      <td className={cell}>
                        {format.number(i.marked)} / {format.number(i.total)}
                      </td>
                      <td className={cell}>{format.number(i.waitingThirdMarker)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </div>
      )}
      {editingSettings && results ? (
        <ResultSettingsDialog
          examId={Number(examId)}
          settings={results.settings}
          onClose={() => setEditingSettings(false)}
          onSaved={(settings) => {
            setEditingSettings(false);
            setResults({ ...results, settings });
            setNotice(t('settings.saved'));
          }}
        />
      ) : null}
      {moderating && progress ? (
        <ModerateDialog
          examId={Number(examId)}
          evaluator={moderating}
          overall={progress.overall}
          onClose={() => setModerating(null)}
          onDone={(message) => {
            setModerating(null);
            setNotice(message);
            load();
          }}
        />
      ) : null}
    </section>
  );
}
