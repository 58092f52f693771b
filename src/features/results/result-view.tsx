import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { myResultsApi, type ResultDetail } from './api/results-api.ts';
import { answerText, keyText, plainText, variantOf } from '#machines/results/answer-text.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';

const cell = css({ px: '2', py: '1.5', textAlign: 'start', verticalAlign: 'top', borderBottomWidth: '1px', borderColor: 'border' });

/** Asking for re-evaluation: the questions (checkboxes) and why; the server raises the support ticket. */
function ReevaluationDialog({ result, onClose, onDone }: { result: ResultDetail; onClose: () => void; onDone: (r: ResultDetail) => void }) {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const format = useFormat();
  const [items, setItems] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const numbers = (result.answerSheet ?? []).map((i) => i.number);
  return (
    <Dialog
      title={t('reevaluation.title')}
      description={t('reevaluation.intro', { date: result.reevaluation.openUntil ? format.dateTime(result.reevaluation.openUntil) : '' })}
      onClose={onClose}
      busy={busy}
      size="lg"
      testId="reevaluation-dialog"
      onSubmit={() => {
        if (!items.length || !reason.trim()) return;
        setBusy(true);
        setFailure(null);
        myResultsApi
          .requestReevaluation(result.resultId, items, reason.trim())
          .then(onDone, (error: unknown) => setFailure(error ?? new Error('failed')))
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('reevaluation.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={!items.length || !reason.trim()} data-testid="reevaluation-confirm">
            {t('reevaluation.send')}
          </Button>
        </>
      }
    >
      <fieldset className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', border: 'none', p: 0, m: 0 })}>
        <legend className={css({ fontWeight: 'semibold', mb: '2' })}>{t('reevaluation.questions')}</legend>
        {numbers.map((n) => (
          <Checkbox
            key={n}
            checked={items.includes(n)}
            onChange={(on) => setItems((current) => (on ? [...current, n].sort((a, b) => a - b) : current.filter((x) => x !== n)))}
            testId={`reevaluation-item-${n}`}
          >
            {t('question', { number: n })}
          </Checkbox>
        ))}
      </fieldset>
      <TextAreaField
        label={t('reevaluation.reason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        rows={3}
        data-testid="reevaluation-reason"
      />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

/** The result slice (spec §4, decision 0204): the result open, without its answer sheet. */
const resultSlice = ({ resultId, examId, paperCode, status, total, maxTotal, grade, passed, publishedAt }: ResultDetail) => ({
  resultId,
  examId,
  paperCode,
  status,
  total,
  maxTotal,
  grade,
  passed,
  publishedAt,
});

/** /results?result=7 — one published result: totals per section, grade, pass, the answer sheet, re-evaluation and history. */
export function ResultView({ resultId }: { resultId: number }) {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const format = useFormat();
  const [result, setResult] = useState<ResultDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  const [sent, setSent] = useState(false);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    myResultsApi.get(resultId).then(
      (answer) => {
        setResult(answer);
        storeRecord('result', resultSlice(answer));
      },
      (failure: unknown) => {
        failRecord('result');
        setError(failure ?? new Error('failed'));
      },
    );
  }, [resultId]);
  useEffect(load, [load]);
  if (error) return <ErrorState message={errorText} onRetry={load} />;
  if (!result) return <LoadingState label={t('loading')} />;
  const r = result;
  return (
    <section>
      <PageHeader
        title={`${r.examName} · ${r.paperCode}`}
        description={r.paperTitle}
        actions={
          r.reevaluation.canRequest ? (
            <Button onClick={() => setAsking(true)} data-testid="request-reevaluation">
              {t('reevaluation.open')}
            </Button>
          ) : null
        }
      />
      <div className={`${card} ${css({ p: '4', mb: '4', display: 'grid', gap: '2' })}`} data-testid="result-summary">
        <p className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
          {t('mine.score', { total: format.number(r.total), max: format.number(r.maxTotal), percent: format.number(r.percent) })}
        </p>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {r.grade ? <Badge tone="primary">{t('grade', { grade: r.grade })}</Badge> : null}
          <Badge tone={r.passed ? 'success' : 'error'}>{r.passed ? t('passed') : t('failed')}</Badge>
          <Badge>{t(`status.${r.status}`)}</Badge>
        </div>
        {r.reevaluation.openUntil && r.reevaluation.canRequest ? (
          <p>{t('reevaluation.openUntil', { date: format.dateTime(r.reevaluation.openUntil) })}</p>
        ) : null}
        {r.reevaluation.ticketId ? (
          <p data-testid="reevaluation-ticket">{t('reevaluation.ticket', { ticket: r.reevaluation.ticketId, items: r.reevaluation.items.join(', ') })}</p>
        ) : null}
        {sent ? <p role="status">{t('reevaluation.sent')}</p> : null}
      </div>

      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '2' })}>{t('sections')}</h2>
      <table className={css({ width: '100%', borderCollapse: 'collapse', mb: '4' })} data-testid="result-sections">
        <thead>
          <tr>
            <th className={cell}>{t('section')}</th>
            <th className={cell}>{t('marks')}</th>
          </tr>
        </thead>
        <tbody>
          {r.sections.map((s) => (
            <tr key={s.sectionId}>
              <td className={cell}>
                {s.title}
                {s.attemptAny ? ` (${t('attemptAny', { count: s.attemptAny })})` : ''}
              </td>
              <td className={cell}>
                {format.number(s.total)} / {format.number(s.maxTotal)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '2' })}>{t('sheet.title')}</h2>
      {r.answerSheet === null ? (
        <p>{t('sheet.notShown')}</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={css({ width: '100%', borderCollapse: 'collapse' })} data-testid="answer-sheet">
            <thead>
              <tr>
                <th className={cell}>{t('sheet.number')}</th>
                <th className={cell}>{t('sheet.question')}</th>
                <th className={cell}>{t('sheet.yourAnswer')}</th>
                <th className={cell}>{t('sheet.key')}</th>
                <th className={cell}>{t('marks')}</th>
              </tr>
            </thead>
            <tbody>
              {r.answerSheet.map((item) => {
                const content = item.content;
                const given = content ? answerText(content, item.response, r.medium) : null;
                const key = content ? keyText(content, r.medium) : null;
                return (
                  <tr key={item.number} data-testid={`sheet-${item.number}`}>
                    <td className={cell}>{item.number}</td>
                    <td className={cell}>{content ? plainText(variantOf(content, r.medium).stem) : ''}</td>
                    <td className={cell}>{given ?? <em>{t('sheet.notAnswered')}</em>}</td>
                    <td className={cell}>{key ?? <em>{t('sheet.markedByPerson')}</em>}</td>
                    <td className={cell}>
                      {item.marks === null ? t('sheet.awaiting') : `${format.number(item.marks)} / ${format.number(item.maxMarks)}`}
                      {!item.counted ? ` (${t('sheet.notCounted')})` : ''}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {r.history.length ? (
        <>
          <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mt: '4', mb: '2' })}>{t('history.title')}</h2>
          <ol className={css({ display: 'grid', gap: '1', ps: '5' })} data-testid="result-history">
            {r.history.map((h, i) => {
              const before = (h.details.before as { total?: number } | undefined)?.total;
              const after = (h.details.after as { total?: number } | undefined)?.total;
              return (
                <li key={i}>
                  {format.dateTime(h.at)} · {t(`history.${h.event}`, { defaultValue: h.event })}
                  {before !== undefined && after !== undefined
                    ? ` · ${t('history.change', { before: format.number(before), after: format.number(after) })}`
                    : ''}
                </li>
              );
            })}
          </ol>
        </>
      ) : null}

      {asking ? (
        <ReevaluationDialog
          result={r}
          onClose={() => setAsking(false)}
          onDone={(updated) => {
            setAsking(false);
            setSent(true);
            setResult(updated);
            storeRecord('result', resultSlice(updated));
          }}
        />
      ) : null}
    </section>
  );
}
