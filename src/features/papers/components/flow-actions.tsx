import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { paperStatusNames } from '#machines/papers/paper-flow.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField } from '#src/components/ui/field.tsx';
import { papersApi, type PaperEventName, type PaperRecord } from '../api/papers-api.ts';
import { paperCallFailure, type PaperCallFailure } from '../lib/paper-errors.ts';

/** The flow's buttons in the order a paper moves: Draft → Review → Locked → Published. */
const FLOW: readonly PaperEventName[] = ['paper.submit', 'paper.requestChanges', 'paper.lock', 'paper.unlock', 'paper.publish'];
const NEEDS_REASON: ReadonlySet<PaperEventName> = new Set(['paper.requestChanges', 'paper.unlock']);

const step = css({ display: 'inline-flex', alignItems: 'center', gap: '1', fontSize: 'sm' });

/** Where the paper is in its flow, as an ordered list (the current step is marked for assistive technology too). */
export function FlowSteps({ paper }: { paper: PaperRecord }) {
  const { t } = useTranslation('papers');
  const current = paperStatusNames.indexOf(paper.status);
  return (
    <ol aria-label={t('flow.steps')} className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', listStyle: 'none', p: 0, m: 0 })} data-testid="flow-steps">
      {paperStatusNames.map((status, index) => (
        <li key={status} className={step} aria-current={index === current ? 'step' : undefined}>
          <span
            className={css({
              px: '2',
              py: '0.5',
              borderRadius: 'full',
              borderWidth: '1px',
              borderColor: index === current ? 'primary.main' : 'border',
              bg: index === current ? 'primary.main' : index < current ? 'bg.subtle' : 'transparent',
              color: index === current ? 'primary.contrast' : 'fg.default',
              fontWeight: index === current ? 'semibold' : 'normal',
            })}
          >
            {t(`status.${status}`)}
          </span>
          {index < paperStatusNames.length - 1 ? <span aria-hidden="true">→</span> : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * The flow's actions the caller may take now (the server's `actions`): submit, ask for changes
 * and unlock with a reason, lock, publish. A refusal is shown for what it is: a lock stopped by
 * the blueprint lists its problems; a 409 (the paper moved on, or was changed first) reloads it.
 */
export function FlowActions({
  paper,
  onChanged,
  onConflict,
}: {
  paper: PaperRecord;
  onChanged: (next: PaperRecord) => void;
  onConflict: (failure: PaperCallFailure) => void;
}) {
  const { t } = useTranslation('papers');
  const [asking, setAsking] = useState<PaperEventName | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<PaperEventName | null>(null);
  const [refusal, setRefusal] = useState<string[] | null>(null);
  const available = FLOW.filter((event) => paper.actions.includes(event));

  const run = async (event: PaperEventName, withReason?: string) => {
    setBusy(event);
    setRefusal(null);
    try {
      const answer = await papersApi.transition(paper.paperId, event, paper.version, withReason);
      setAsking(null);
      setReason('');
      void notify.success(t(`flow.done.${event.slice('paper.'.length)}`, { code: paper.code, status: t(`status.${answer.toStatus}`) }));
      onChanged(answer.record);
    } catch (error) {
      const failure = await paperCallFailure(error);
      if (failure.conflict) {
        setAsking(null);
        onConflict(failure);
      } else setRefusal(failure.messages.length ? failure.messages : [t('flow.failed')]);
    } finally {
      setBusy(null);
    }
  };

  if (available.length === 0) return null;
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <div role="group" aria-label={t('flow.actions')} className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {available.map((event) => {
          const name = event.slice('paper.'.length);
          return (
            <Button
              key={event}
              variant={event === 'paper.unlock' || event === 'paper.requestChanges' ? 'outline' : 'solid'}
              loading={busy === event}
              disabled={busy !== null}
              onClick={() => (NEEDS_REASON.has(event) ? (setReason(''), setAsking(event)) : void run(event))}
              data-testid={`flow-${name}`}
            >
              {t(`flow.action.${name}`)}
            </Button>
          );
        })}
      </div>
      {refusal && !asking ? (
        <div role="alert" className={css({ color: 'error.dark' })} data-testid="flow-refusal">
          {refusal.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      {asking ? (
        <Dialog
          title={t(`flow.reasonTitle.${asking.slice('paper.'.length)}`, { code: paper.code })}
          description={t(`flow.reasonHint.${asking.slice('paper.'.length)}`)}
          onClose={() => setAsking(null)}
          busy={busy !== null}
          testId="flow-reason"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim()) void run(asking, reason.trim());
          }}
          footer={
            <>
              <Button variant="ghost" onClick={() => setAsking(null)} disabled={busy !== null}>
                {t('action.cancel')}
              </Button>
              <Button type="submit" loading={busy !== null} disabled={!reason.trim()} data-testid="flow-reason-confirm">
                {t(`flow.action.${asking.slice('paper.'.length)}`)}
              </Button>
            </>
          }
        >
          <TextAreaField
            label={t('flow.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            maxLength={2000}
            rows={3}
            data-testid="flow-reason-text"
          />
          {refusal ? (
            <div role="alert" className={css({ color: 'error.dark' })}>
              {refusal.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
          ) : null}
        </Dialog>
      ) : null}
    </div>
  );
}
