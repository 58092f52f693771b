import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { examsApi, type Exam, type GradeBand } from '../api/projects-api.ts';
import { isStaleEdit, StaleEditNotice, type StaleEdit } from './stale-edit.tsx';

type Errors = Record<string, string[]>;

/** The form keeps numbers as typed (text) until they are checked. */
interface Draft {
  code: string;
  name: string;
  description: string;
  passPercent: string;
  sectionMinimumPercent: string;
  gradeBands: Array<{ grade: string; minPercent: string }>;
}

const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const draftOf = (exam: Exam): Draft => ({
  code: exam.code,
  name: exam.name,
  description: exam.description,
  passPercent: String(exam.passRules.passPercent),
  sectionMinimumPercent: exam.passRules.sectionMinimumPercent == null ? '' : String(exam.passRules.sectionMinimumPercent),
  gradeBands: exam.gradeBands.map((band) => ({ grade: band.grade, minPercent: String(band.minPercent) })),
});

const percent = (text: string): number | null => {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value : Number.NaN;
};

/**
 * The rules of the server's EditExamBody and its grade-band check (server/modules/exams/exams-routes.ts),
 * checked before sending; the server checks them again.
 */
export function checkExamRules(draft: Draft, t: (key: string, options?: Record<string, unknown>) => string): Errors {
  const errors: Errors = {};
  const code = draft.code.trim();
  if (!code) errors.code = [t('examDetails.codeRequired')];
  else if (code.length > 32 || !CODE_PATTERN.test(code)) errors.code = [t('create.codeHint')];
  if (!draft.name.trim()) errors.name = [t('basics.nameRequired')];
  const pass = percent(draft.passPercent);
  if (pass === null || Number.isNaN(pass)) errors['passRules.passPercent'] = [t('examDetails.percentRange')];
  const section = percent(draft.sectionMinimumPercent);
  if (Number.isNaN(section)) errors['passRules.sectionMinimumPercent'] = [t('examDetails.percentRange')];
  const seen = new Set<string>();
  draft.gradeBands.forEach((band, index) => {
    const grade = band.grade.trim();
    if (!grade || grade.length > 10) errors[`gradeBands[${index}].grade`] = [t('examDetails.gradeRequired')];
    else if (seen.has(grade.toLowerCase())) errors[`gradeBands[${index}].grade`] = [t('examDetails.gradeTwice', { grade })];
    seen.add(grade.toLowerCase());
    const min = percent(band.minPercent);
    if (min === null || Number.isNaN(min)) errors[`gradeBands[${index}].minPercent`] = [t('examDetails.percentRange')];
    else if (index > 0) {
      const above = percent(draft.gradeBands[index - 1].minPercent);
      if (above !== null && !Number.isNaN(above) && min >= above) errors[`gradeBands[${index}].minPercent`] = [t('examDetails.bandsDescending')];
    }
  });
  return errors;
}

const bandsOf = (draft: Draft): GradeBand[] => draft.gradeBands.map((band) => ({ grade: band.grade.trim(), minPercent: Number(band.minPercent) }));

/**
 * An exam's details and pass rules (EXAMS.md §2 "Exam"): code, name, description, pass mark,
 * section minimum and grade bands, saved on the version they were loaded at; an edit over a newer
 * version keeps the input and offers theirs or saving over it (docs/decisions/0094, 0098). Read-only
 * when the exam machine does not offer this caller `exam.edit` (a Live exam's rules are frozen).
 */
export function ExamRulesEditor({ exam, onSaved, onReload }: { exam: Exam; onSaved: (exam: Exam) => void; onReload: () => void }) {
  const { t } = useTranslation('projects');
  const [draft, setDraft] = useState<Draft>(() => draftOf(exam));
  const [baseVersion, setBaseVersion] = useState(exam.version);
  const [errors, setErrors] = useState<Errors | null>(null);
  const [stale, setStale] = useState<StaleEdit | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);
  const readOnly = !exam.actions.includes('exam.edit');

  const save = async (version: number) => {
    const local = checkExamRules(draft, t);
    setErrors(Object.keys(local).length ? local : null);
    if (Object.keys(local).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const section = percent(draft.sectionMinimumPercent);
      const saved = await examsApi.edit(exam.examId, {
        code: draft.code.trim(),
        name: draft.name.trim(),
        description: draft.description.trim(),
        passRules: { passPercent: Number(draft.passPercent), sectionMinimumPercent: section },
        gradeBands: bandsOf(draft),
        version,
      });
      setStale(null);
      setBaseVersion(saved.version);
      void notify.success(t('examDetails.saved', { name: saved.name }));
      onSaved(saved);
    } catch (error) {
      if (isStaleEdit(error)) setStale(error);
      else {
        setErrors((error as { errors?: Errors } | null)?.errors ?? null);
        setFailure(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(baseVersion);
  };
  const set = (field: 'code' | 'name' | 'description' | 'passPercent' | 'sectionMinimumPercent') => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: event.target.value }));
  const setBand = (index: number, field: 'grade' | 'minPercent', value: string) =>
    setDraft((d) => ({ ...d, gradeBands: d.gradeBands.map((band, i) => (i === index ? { ...band, [field]: value } : band)) }));
  const addBand = () => setDraft((d) => ({ ...d, gradeBands: [...d.gradeBands, { grade: '', minPercent: '' }] }));
  const removeBand = (index: number) => setDraft((d) => ({ ...d, gradeBands: d.gradeBands.filter((_, i) => i !== index) }));

  return (
    <form onSubmit={submit} className={css({ display: 'grid', gap: '3', maxWidth: '44rem' })} data-testid="exam-rules-form" noValidate>
      {stale ? (
        <StaleEditNotice
          conflict={stale}
          busy={busy}
          onLoadLatest={() => {
            setStale(null);
            onReload();
          }}
          onOverwrite={() => void save(stale.currentVersion)}
        />
      ) : null}
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 2fr' } })}>
        <TextField
          label={t('field.code')}
          value={draft.code}
          onChange={set('code')}
          required
          maxLength={32}
          error={fieldError(errors, 'code')}
          disabled={readOnly}
        />
        <TextField
          label={t('field.name')}
          value={draft.name}
          onChange={set('name')}
          required
          maxLength={200}
          error={fieldError(errors, 'name')}
          disabled={readOnly}
        />
      </div>
      <TextAreaField
        label={t('field.description')}
        value={draft.description}
        onChange={set('description')}
        maxLength={2000}
        rows={2}
        error={fieldError(errors, 'description')}
        disabled={readOnly}
      />
      <fieldset className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '1' })}>{t('examDetails.passRules')}</legend>
        <TextField
          label={t('examDetails.passPercent')}
          type="number"
          inputMode="decimal"
          min={0}
          max={100}
          step="any"
          value={draft.passPercent}
          onChange={set('passPercent')}
          required
          hint={t('examDetails.passPercentHint')}
          error={fieldError(errors, 'passRules.passPercent')}
          disabled={readOnly}
        />
        <TextField
          label={t('examDetails.sectionMinimum')}
          type="number"
          inputMode="decimal"
          min={0}
          max={100}
          step="any"
          value={draft.sectionMinimumPercent}
          onChange={set('sectionMinimumPercent')}
          hint={t('examDetails.sectionMinimumHint')}
          error={fieldError(errors, 'passRules.sectionMinimumPercent')}
          disabled={readOnly}
        />
      </fieldset>
      <fieldset className={css({ display: 'grid', gap: '2' })} data-testid="grade-bands">
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '1' })}>{t('examDetails.gradeBands')}</legend>
        <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{t('examDetails.gradeBandsHint')}</p>
        {draft.gradeBands.length === 0 ? <p className={css({ fontSize: 'sm' })}>{t('examDetails.noBands')}</p> : null}
        {draft.gradeBands.map((band, index) => (
          <div
            key={index}
            className={css({ display: 'grid', gap: '2', gridTemplateColumns: '1fr 1fr auto', alignItems: 'end' })}
            data-testid={`grade-band-${index}`}
          >
            <TextField
              label={t('examDetails.grade', { n: index + 1 })}
              value={band.grade}
              onChange={(e) => setBand(index, 'grade', e.target.value)}
              maxLength={10}
              required
              error={fieldError(errors, `gradeBands[${index}].grade`)}
              disabled={readOnly}
            />
            <TextField
              label={t('examDetails.minPercent', { n: index + 1 })}
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step="any"
              value={band.minPercent}
              onChange={(e) => setBand(index, 'minPercent', e.target.value)}
              required
              error={fieldError(errors, `gradeBands[${index}].minPercent`)}
              disabled={readOnly}
            />
            {readOnly ? (
              <span />
            ) : (
              <Button size="sm" variant="ghost" onClick={() => removeBand(index)} aria-label={t('examDetails.removeBand', { grade: band.grade || index + 1 })}>
                {t('examDetails.remove')}
              </Button>
            )}
          </div>
        ))}
        {readOnly || draft.gradeBands.length >= 20 ? null : (
          <div>
            <Button size="sm" variant="outline" onClick={addBand} data-testid="add-grade-band">
              {t('examDetails.addBand')}
            </Button>
          </div>
        )}
      </fieldset>
      {failureText && !errors ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
      {readOnly ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })} data-testid="exam-rules-read-only">
          {['Draft', 'Scheduled'].includes(exam.status) ? t('examDetails.noEditRight') : t('examDetails.frozen', { status: t(`examStatus.${exam.status}`) })}
        </p>
      ) : (
        <div>
          <Button type="submit" loading={busy} data-testid="exam-rules-save">
            {t('examDetails.save')}
          </Button>
        </div>
      )}
    </form>
  );
}
