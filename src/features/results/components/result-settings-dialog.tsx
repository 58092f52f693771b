import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { markingApi, type ResultSettings } from '../api/results-api.ts';

type Errors = Record<string, string[]>;
type NumberField = 'reevaluationDays' | 'doubleMarkPercent' | 'thirdMarkThreshold';

/** The limits of the server's ResultSettingsBody (server/modules/results/results-schemas.ts), checked before sending. */
const limits: Record<NumberField, { max: number; integer: boolean }> = {
  reevaluationDays: { max: 365, integer: true },
  doubleMarkPercent: { max: 100, integer: false },
  thirdMarkThreshold: { max: 1000, integer: false },
};

export function checkResultSettings(draft: Record<NumberField, string>, t: (key: string, options?: Record<string, unknown>) => string): Errors {
  const errors: Errors = {};
  for (const field of Object.keys(limits) as NumberField[]) {
    const { max, integer } = limits[field];
    const text = draft[field].trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value) || value < 0 || value > max) errors[field] = [t('settings.range', { max })];
    else if (integer ? !Number.isInteger(value) : Math.round(value * 100) !== value * 100)
      errors[field] = [t(integer ? 'settings.wholeDays' : 'settings.twoDecimals')];
  }
  return errors;
}

/**
 * The exam's result settings (issue 20, docs/decisions/0259): whether candidates see their answer
 * sheet, the re-evaluation window, the share marked twice blind and the third-marker threshold.
 * Grade bands and the pass mark are the exam's rules, edited on the exam's page (linked here).
 */
export function ResultSettingsDialog({
  examId,
  settings,
  onClose,
  onSaved,
}: {
  examId: number;
  settings: ResultSettings;
  onClose: () => void;
  onSaved: (settings: ResultSettings) => void;
}) {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const [answerSheet, setAnswerSheet] = useState(settings.answerSheet);
  const [draft, setDraft] = useState<Record<NumberField, string>>({
    reevaluationDays: String(settings.reevaluationDays),
    doubleMarkPercent: String(settings.doubleMarkPercent),
    thirdMarkThreshold: String(settings.thirdMarkThreshold),
  });
  const [errors, setErrors] = useState<Errors | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const number = (field: NumberField, label: string, hint: string, step: string) => (
    <TextField
      label={label}
      hint={hint}
      type="number"
      inputMode={limits[field].integer ? 'numeric' : 'decimal'}
      min={0}
      max={limits[field].max}
      step={step}
      value={draft[field]}
      onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))}
      required
      error={fieldError(errors, field)}
      data-testid={`settings-${field}`}
    />
  );
  return (
    <Dialog
      title={t('settings.title')}
      description={t('settings.intro')}
      onClose={onClose}
      busy={busy}
      testId="result-settings-dialog"
      onSubmit={() => {
        const local = checkResultSettings(draft, t);
        setErrors(Object.keys(local).length ? local : null);
        if (Object.keys(local).length) return;
        setBusy(true);
        setFailure(null);
        markingApi
          .saveSettings(examId, {
            answerSheet,
            reevaluationDays: Number(draft.reevaluationDays),
            doubleMarkPercent: Number(draft.doubleMarkPercent),
            thirdMarkThreshold: Number(draft.thirdMarkThreshold),
          })
          .then(onSaved, (error: unknown) => {
            setErrors((error as { errors?: Errors } | null)?.errors ?? null);
            setFailure(error ?? new Error('failed'));
          })
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('reevaluation.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="result-settings-save">
            {t('settings.save')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'grid', gap: '3' })}>
        <Switch
          label={t('settings.answerSheet')}
          hint={t('settings.answerSheetHint')}
          checked={answerSheet}
          onChange={setAnswerSheet}
          testId="settings-answerSheet"
        />
        {number('reevaluationDays', t('settings.reevaluationDays'), t('settings.reevaluationDaysHint'), '1')}
        {number('doubleMarkPercent', t('settings.doubleMarkPercent'), t('settings.doubleMarkPercentHint'), '0.01')}
        {number('thirdMarkThreshold', t('settings.thirdMarkThreshold'), t('settings.thirdMarkThresholdHint'), '0.25')}
        <p className={css({ fontSize: 'sm' })}>
          <Link to="/workspace/exam">{t('settings.rulesLink')}</Link>
        </p>
        {failure ? (
          <p role="alert" className={css({ color: 'error.dark' })}>
            {failureText}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
