import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import type { CreatePaperBody, Navigation, PaperMode, PaperRecord } from '../api/papers-api.ts';
import { paperCallFailure } from '../lib/paper-errors.ts';

/** The content languages a paper's instructions are written in (the server's `Instructions`). */
export const INSTRUCTION_LANGUAGES = ['en', 'hi', 'gu', 'fr', 'es'] as const;

const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;

/**
 * Creating a paper of the selected exam, or editing a Draft paper's details: code, title,
 * duration, total marks, instructions per language, navigation, calculator and mode.
 */
export function PaperFormDialog({
  paper,
  languages,
  onClose,
  onSave,
}: {
  paper: PaperRecord | null;
  languages: string[];
  onClose: () => void;
  onSave: (body: CreatePaperBody) => Promise<void>;
}) {
  const { t } = useTranslation('papers');
  const [code, setCode] = useState(paper?.code ?? '');
  const [title, setTitle] = useState(paper?.title ?? '');
  const [duration, setDuration] = useState(String(paper?.durationMinutes ?? 180));
  const [marks, setMarks] = useState(String(paper?.totalMarks ?? 100));
  const [instructions, setInstructions] = useState<Record<string, string>>(paper?.instructions ?? {});
  const [navigation, setNavigation] = useState<Navigation>(paper?.navigation ?? 'free');
  const [calculator, setCalculator] = useState(paper?.calculator ?? false);
  const [mode, setMode] = useState<PaperMode>(paper?.mode ?? 'online');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const shownLanguages = INSTRUCTION_LANGUAGES.filter((l) => languages.includes(l));

  const durationNumber = Number(duration);
  const marksNumber = Number(marks);
  const errors = {
    code: CODE.test(code) ? null : t('form.codeInvalid'),
    title: title.trim() ? null : t('form.titleRequired'),
    duration: Number.isInteger(durationNumber) && durationNumber >= 1 && durationNumber <= 1440 ? null : t('form.durationInvalid'),
    marks: Number.isFinite(marksNumber) && marksNumber > 0 && marksNumber <= 100_000 ? null : t('form.marksInvalid'),
  };
  const valid = Object.values(errors).every((e) => e === null);
  const show = (error: string | null) => (shown && error ? error : undefined);

  return (
    <Dialog
      title={paper ? t('form.editTitle', { code: paper.code }) : t('form.createTitle')}
      onClose={onClose}
      busy={busy}
      size="lg"
      testId="paper-form"
      onSubmit={(event) => {
        event.preventDefault();
        setShown(true);
        if (!valid) return;
        setBusy(true);
        setFailure(null);
        const cleaned = Object.fromEntries(Object.entries(instructions).filter(([, text]) => text.trim() !== ''));
        onSave({ code, title: title.trim(), durationMinutes: durationNumber, totalMarks: marksNumber, instructions: cleaned, navigation, calculator, mode })
          .catch(async (error: unknown) => {
            const refused = await paperCallFailure(error);
            setFailure(refused.messages.join(' ') || t('form.failed'));
          })
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="paper-form-save">
            {paper ? t('action.save') : t('action.create')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 2fr' } })}>
        <TextField label={t('field.code')} value={code} onChange={(e) => setCode(e.target.value)} error={show(errors.code)} required data-testid="paper-code" />
        <TextField
          label={t('field.title')}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={show(errors.title)}
          required
          data-testid="paper-title"
        />
        <TextField
          label={t('field.duration')}
          inputMode="numeric"
          value={duration}
          onChange={(e) => setDuration(e.target.value)}
          error={show(errors.duration)}
          required
          data-testid="paper-duration"
        />
        <TextField
          label={t('field.totalMarks')}
          inputMode="decimal"
          value={marks}
          onChange={(e) => setMarks(e.target.value)}
          error={show(errors.marks)}
          required
          data-testid="paper-marks"
        />
      </div>
      <ChoiceGroup
        title={t('field.navigation')}
        name="paper-navigation"
        value={navigation}
        onChange={setNavigation}
        options={[
          { value: 'free', label: t('navigation.free'), testId: 'navigation-free' },
          { value: 'sectional', label: t('navigation.sectional'), testId: 'navigation-sectional' },
        ]}
      />
      <ChoiceGroup
        title={t('field.mode')}
        name="paper-mode"
        value={mode}
        onChange={setMode}
        options={[
          { value: 'online', label: t('mode.online'), testId: 'mode-online' },
          { value: 'offline', label: t('mode.offline'), testId: 'mode-offline' },
        ]}
      />
      <Switch label={t('field.calculator')} checked={calculator} onChange={setCalculator} testId="paper-calculator" />
      <fieldset className={css({ display: 'grid', gap: '3' })}>
        <legend className={css({ fontWeight: 'semibold', mb: '1' })}>{t('field.instructions')}</legend>
        {shownLanguages.map((language) => (
          <TextAreaField
            key={language}
            label={t('field.instructionsIn', { language: t(`language.${language}`) })}
            lang={language}
            rows={3}
            value={instructions[language] ?? ''}
            onChange={(e) => setInstructions((current) => ({ ...current, [language]: e.target.value }))}
            data-testid={`paper-instructions-${language}`}
          />
        ))}
      </fieldset>
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })} data-testid="paper-form-error">
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}
