import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { projectsApi } from '../api/projects-api.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';

/** "Save as template" (decision 0091): the project's item types, categories and flows become a template new projects start from. */
export function SaveTemplateDialog({ projectId, projectName, onClose }: { projectId: number; projectName: string; onClose: () => void }) {
  const { t } = useTranslation('projects');
  const [name, setName] = useState(projectName);
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]> | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: [t('basics.nameRequired')] });
    setBusy(true);
    setErrors(null);
    setFailure(null);
    try {
      const saved = await projectsApi.saveTemplate(projectId, { name: name.trim(), description: description.trim() || undefined });
      storeRecord('projectTemplate', saved);
      void notify.success(t('templates.saved', { name: saved.name }));
      onClose();
    } catch (error) {
      failRecord('projectTemplate');
      setErrors((error as { errors?: Record<string, string[]> } | null)?.errors ?? null);
      setFailure(error);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t('templates.saveTitle')}
      description={t('templates.saveIntro')}
      onClose={onClose}
      onSubmit={(e) => void submit(e)}
      busy={busy}
      testId="save-template-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('templates.save')}
          </Button>
        </>
      }
    >
      <TextField
        label={t('field.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        maxLength={200}
        error={fieldError(errors, 'name')}
        autoFocus
      />
      <TextAreaField
        label={t('field.description')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={2000}
        rows={3}
        error={fieldError(errors, 'description')}
      />
      {failureText && !errors ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}
