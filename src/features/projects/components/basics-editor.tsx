import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { contentLanguages, projectsApi, type ProjectDetail } from '../api/projects-api.ts';
import { isStaleEdit, StaleEditNotice, type StaleEdit } from './stale-edit.tsx';

type Draft = { code: string; name: string; description: string; languages: string[] };
type Errors = Record<string, string[]>;

const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const draftOf = (project: ProjectDetail): Draft => ({
  code: project.code,
  name: project.name,
  description: project.description,
  languages: [...project.languages],
});

/** The rules of the server's EditProjectBody, checked before sending (the server checks them again). */
export function checkBasics(draft: Draft, t: (key: string) => string): Errors {
  const errors: Errors = {};
  if (!draft.code.trim()) errors.code = [t('basics.codeRequired')];
  else if (draft.code.trim().length > 32 || !CODE_PATTERN.test(draft.code.trim())) errors.code = [t('create.codeHint')];
  if (!draft.name.trim()) errors.name = [t('basics.nameRequired')];
  if (draft.languages.length === 0) errors.languages = [t('basics.languagesRequired')];
  return errors;
}

/**
 * The stepper's basics step and the project's settings: code, name, description and the
 * languages of content, saved on the version they were loaded at (docs/decisions/0094).
 */
export function BasicsEditor({
  project,
  onSaved,
  onReload,
}: {
  project: ProjectDetail;
  onSaved: (project: ProjectDetail) => void;
  onReload: () => Promise<unknown>;
}) {
  const { t } = useTranslation('projects');
  const [draft, setDraft] = useState<Draft>(() => draftOf(project));
  const [baseVersion, setBaseVersion] = useState(project.version);
  const [errors, setErrors] = useState<Errors | null>(null);
  const [stale, setStale] = useState<StaleEdit | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);
  const readOnly = !project.canConfigure;

  const save = async (version: number) => {
    const local = checkBasics(draft, t);
    setErrors(Object.keys(local).length ? local : null);
    if (Object.keys(local).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const saved = await projectsApi.edit(project.projectId, {
        code: draft.code.trim(),
        name: draft.name.trim(),
        description: draft.description.trim(),
        languages: draft.languages,
        version,
      });
      setStale(null);
      setBaseVersion(saved.version);
      void notify.success(t('basics.saved', { name: saved.name }));
      onSaved(saved);
    } catch (error) {
      // A newer version: the input stays as typed; the notice offers theirs or saving over it.
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
  const set = (field: 'code' | 'name' | 'description') => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  const toggleLanguage = (language: string, on: boolean) =>
    setDraft((d) => ({
      ...d,
      languages: on ? contentLanguages.filter((l) => l === language || d.languages.includes(l)) : d.languages.filter((l) => l !== language),
    }));

  return (
    <form onSubmit={submit} className={css({ display: 'grid', gap: '3', maxWidth: '40rem' })} data-testid="basics-form" noValidate>
      {stale ? (
        <StaleEditNotice
          conflict={stale}
          busy={busy}
          onLoadLatest={() => {
            setStale(null);
            void onReload().then(() => undefined);
          }}
          onOverwrite={() => void save(stale.currentVersion)}
        />
      ) : null}
      <TextField
        label={t('field.code')}
        value={draft.code}
        onChange={set('code')}
        required
        maxLength={32}
        hint={t('create.codeHint')}
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
      <TextAreaField
        label={t('field.description')}
        value={draft.description}
        onChange={set('description')}
        maxLength={2000}
        rows={3}
        error={fieldError(errors, 'description')}
        disabled={readOnly}
      />
      <fieldset className={css({ display: 'grid', gap: '1' })} aria-describedby={errors?.languages ? 'basics-languages-error' : undefined}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '1' })}>{t('field.languages')}</legend>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          {contentLanguages.map((language) => (
            <Checkbox
              key={language}
              checked={draft.languages.includes(language)}
              onChange={(on) => toggleLanguage(language, on)}
              disabled={readOnly}
              testId={`language-${language}`}
            >
              {t(`language.${language}`)}
            </Checkbox>
          ))}
        </div>
        {errors?.languages ? (
          <p id="basics-languages-error" className={css({ fontSize: 'xs', color: 'error.main', fontWeight: 'medium' })}>
            {errors.languages.join(' ')}
          </p>
        ) : null}
      </fieldset>
      {failureText && !errors ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
      {readOnly ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('basics.readOnly')}</p>
      ) : (
        <div>
          <Button type="submit" loading={busy} data-testid="basics-save">
            {t('basics.save')}
          </Button>
        </div>
      )}
    </form>
  );
}
