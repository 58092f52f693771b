import { Steps } from '@ark-ui/react/steps';
import { forwardRef, useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { registrationStore } from '#src/app/stores/slices.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { registrationsApi, type OpenSeason } from './api/seasons-api.ts';
import { callFailure } from './lib/call-failure.ts';
import { useLanguageName } from './lib/language-name.ts';

/** A step's wrapper inside the tablist without `aria-current` (axe aria-required-children), as in the set-up stepper. */
const StepItem = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function StepItem({ 'aria-current': _current, ...rest }, ref) {
  return <div ref={ref} {...rest} />;
});

export const registerSteps = ['exam', 'medium', 'city', 'accommodations', 'review'] as const;
const stepButton = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  px: '3',
  py: '2',
  borderRadius: 'md',
  cursor: 'pointer',
  fontSize: 'sm',
  '&[data-current]': { bg: 'primary.lighter', color: 'primary.darker', fontWeight: 'semibold' },
});
const DOCUMENT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

/**
 * A candidate registers for an exam of an open season (issue 18): exam, season and papers →
 * medium → preferred city → accommodations with a supporting document → review and submit.
 * A refusal because the window closed meanwhile shows the window's dates in the browser's zone.
 */
function RegisterPage() {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const navigate = useNavigate();
  const languageName = useLanguageName();
  const [open, setOpen] = useState<OpenSeason[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const [step, setStep] = useState(0);
  const [choice, setChoice] = useState({ key: '', papers: [] as number[], medium: '', city: '' });
  const [extraTime, setExtraTime] = useState('');
  const [scribe, setScribe] = useState(false);
  const [largePrint, setLargePrint] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const load = () => {
    setError(null);
    registrationsApi.open().then(setOpen, (failure: unknown) => setError(failure ?? new Error('failed')));
  };
  useEffect(load, []);

  if (error) return <ErrorState message={errorText} onRetry={load} />;
  if (!open) return <LoadingState />;
  if (!open.length)
    return (
      <section aria-labelledby="register-title">
        <PageHeader id="register-title" title={t('register.title')} />
        <EmptyState title={t('register.noneOpen')}>{t('register.noneOpenHint')}</EmptyState>
      </section>
    );

  const options = open.flatMap((s) => s.exams.map((e) => ({ key: `${s.seasonId}:${e.examId}`, season: s, exam: e })));
  const chosen = options.find((o) => o.key === choice.key) ?? null;
  const extra = extraTime === '' ? 0 : Number(extraTime);
  const extraValid = Number.isInteger(extra) && extra >= 0 && extra <= 100;
  const asked = extra > 0 || scribe || largePrint;
  const ready = [Boolean(chosen && choice.papers.length), Boolean(choice.medium), Boolean(choice.city), extraValid];
  const canNext = step < ready.length ? ready[step] : true;

  const submit = async () => {
    if (!chosen) return;
    setBusy(true);
    setRefusal(null);
    try {
      const created = await registrationsApi.register({
        seasonId: chosen.season.seasonId,
        examId: chosen.exam.examId,
        seasonPaperIds: choice.papers,
        medium: choice.medium,
        preferredCity: choice.city,
        ...(asked ? { accommodations: { extraTimePercent: extra, scribe, largePrint } } : {}),
      });
      registrationStore.trigger.select({ record: created as unknown as Record<string, unknown> });
      if (asked && files[0]) {
        try {
          await registrationsApi.uploadDocument(created.registrationId, files[0]);
        } catch {
          void notify.warning(t('register.documentLater'));
        }
      }
      void notify.success(t('register.submitted', { exam: chosen.exam.name }));
      navigate('/registrations/mine');
    } catch (failure) {
      registrationStore.trigger.failure();
      const refused = await callFailure(failure);
      setRefusal(
        refused.reason === 'outsideWindow' && refused.window
          ? t('register.outsideWindow', { opens: format.dateTime(refused.window.opensAt), closes: format.dateTime(refused.window.closesAt) })
          : refused.messages.join(' ') || t('register.failed'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="register-title">
      <PageHeader id="register-title" title={t('register.title')} description={t('register.intro')} />
      <div className={card}>
        <Steps.Root
          count={registerSteps.length}
          step={step}
          onStepChange={(d) => setStep(d.step)}
          linear
          className={css({ p: '4', display: 'grid', gap: '4' })}
        >
          <Steps.List className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })} aria-label={t('register.steps')}>
            {registerSteps.map((name, index) => (
              <Steps.Item key={name} index={index} asChild>
                <StepItem>
                  <Steps.Trigger className={stepButton} data-testid={`register-step-${name}`}>
                    <Steps.Indicator className={css({ fontWeight: 'bold' })}>{index + 1}</Steps.Indicator>
                    {t(`register.step.${name}`)}
                  </Steps.Trigger>
                </StepItem>
              </Steps.Item>
            ))}
          </Steps.List>

          <Steps.Content index={0} className={css({ display: 'grid', gap: '3' })}>
            <SelectField
              label={t('register.examSeason')}
              value={choice.key}
              placeholder={t('register.chooseExam')}
              options={options.map((o) => ({
                value: o.key,
                label: t('register.examOption', { exam: o.exam.name, season: o.season.name, project: o.season.projectName }),
              }))}
              onValueChange={(key) => {
                const o = options.find((x) => x.key === key);
                setChoice({ key, papers: o ? o.exam.papers.map((p) => p.seasonPaperId) : [], medium: '', city: '' });
              }}
              testId="register-exam"
            />
            {chosen ? (
              <>
                <p className={css({ fontSize: 'sm' })}>
                  {t('register.window', {
                    opens: format.dateTime(chosen.season.registrationOpensAt),
                    closes: format.dateTime(chosen.season.registrationClosesAt),
                  })}
                </p>
                <fieldset className={css({ display: 'grid', gap: '2' })}>
                  <legend className={css({ fontWeight: 'semibold', mb: '1' })}>{t('register.papers')}</legend>
                  {chosen.exam.papers.map((p) => (
                    <Checkbox
                      key={p.seasonPaperId}
                      checked={choice.papers.includes(p.seasonPaperId)}
                      onChange={(on) =>
                        setChoice((c) => ({ ...c, papers: on ? [...c.papers, p.seasonPaperId] : c.papers.filter((id) => id !== p.seasonPaperId) }))
                      }
                      testId={`register-paper-${p.paperCode}`}
                    >
                      {t('register.paperOption', { code: p.paperCode, title: p.paperTitle, date: format.date(`${p.sitsOn}T12:00:00`), time: p.startsAt })}
                    </Checkbox>
                  ))}
                </fieldset>
              </>
            ) : null}
          </Steps.Content>

          <Steps.Content index={1}>
            {chosen ? (
              <ChoiceGroup
                title={t('register.medium')}
                name="register-medium"
                value={choice.medium}
                columns={3}
                onChange={(medium) => setChoice((c) => ({ ...c, medium }))}
                options={chosen.season.languages.map((l) => ({ value: l, label: languageName(l), lang: l, testId: `register-medium-${l}` }))}
              />
            ) : null}
          </Steps.Content>

          <Steps.Content index={2}>
            {chosen ? (
              <SelectField
                label={t('register.city')}
                hint={t('register.cityHint')}
                value={choice.city}
                placeholder={t('register.chooseCity')}
                options={chosen.season.cities.map((c) => ({ value: c, label: c }))}
                onValueChange={(city) => setChoice((c) => ({ ...c, city }))}
                testId="register-city"
              />
            ) : null}
          </Steps.Content>

          <Steps.Content index={3} className={css({ display: 'grid', gap: '3' })}>
            <p className={css({ fontSize: 'sm' })}>{t('register.accommodationsIntro')}</p>
            <TextField
              label={t('acc.extraTime')}
              inputMode="numeric"
              value={extraTime}
              onChange={(e) => setExtraTime(e.target.value.replace(/\D/g, ''))}
              error={extraValid ? undefined : t('acc.extraTimeInvalid')}
              data-testid="register-extra-time"
            />
            <Checkbox checked={scribe} onChange={setScribe} testId="register-scribe">
              {t('acc.scribe')}
            </Checkbox>
            <Checkbox checked={largePrint} onChange={setLargePrint} testId="register-large-print">
              {t('acc.largePrint')}
            </Checkbox>
            {asked ? (
              <FileUpload
                label={t('acc.document')}
                hint={t('acc.documentHint')}
                files={files}
                onChange={setFiles}
                maxFiles={1}
                maxBytes={5 * 1024 * 1024}
                accept={DOCUMENT}
              />
            ) : null}
          </Steps.Content>

          <Steps.Content index={4} className={css({ display: 'grid', gap: '3' })} data-testid="register-review">
            {chosen ? (
              <dl className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '14rem 1fr' }, gap: '2' })}>
                <dt className={css({ fontWeight: 'semibold' })}>{t('register.examSeason')}</dt>
                <dd>{t('register.examOption', { exam: chosen.exam.name, season: chosen.season.name, project: chosen.season.projectName })}</dd>
                <dt className={css({ fontWeight: 'semibold' })}>{t('register.papers')}</dt>
                <dd>
                  {chosen.exam.papers
                    .filter((p) => choice.papers.includes(p.seasonPaperId))
                    .map((p) => p.paperCode)
                    .join(', ')}
                </dd>
                <dt className={css({ fontWeight: 'semibold' })}>{t('register.medium')}</dt>
                <dd>{choice.medium ? languageName(choice.medium) : '—'}</dd>
                <dt className={css({ fontWeight: 'semibold' })}>{t('register.city')}</dt>
                <dd>{choice.city || '—'}</dd>
                <dt className={css({ fontWeight: 'semibold' })}>{t('queue.accommodations')}</dt>
                <dd>
                  {asked
                    ? [
                        extra ? t('acc.extraTimeShort', { percent: extra }) : '',
                        scribe ? t('acc.scribe') : '',
                        largePrint ? t('acc.largePrint') : '',
                        files[0] ? t('acc.withDocument', { name: files[0].name }) : '',
                      ]
                        .filter(Boolean)
                        .join(', ')
                    : t('acc.none')}
                </dd>
              </dl>
            ) : null}
            {refusal ? (
              <p role="alert" className={css({ color: 'error.dark' })} data-testid="register-refusal">
                {refusal}
              </p>
            ) : null}
            <div>
              <Button onClick={() => void submit()} loading={busy} disabled={!ready.every(Boolean)} data-testid="register-submit">
                {t('register.submit')}
              </Button>
            </div>
          </Steps.Content>

          <div className={css({ display: 'flex', justifyContent: 'space-between' })}>
            <Steps.PrevTrigger asChild>
              <Button variant="ghost">{t('register.back')}</Button>
            </Steps.PrevTrigger>
            {step < registerSteps.length - 1 ? (
              <Steps.NextTrigger asChild>
                <Button disabled={!canNext} data-testid="register-next">
                  {t('register.next')}
                </Button>
              </Steps.NextTrigger>
            ) : null}
          </div>
        </Steps.Root>
      </div>
    </section>
  );
}

export default function GatedRegisterPage() {
  return (
    <PermissionGate permission={P.Dashboard.View}>
      <RegisterPage />
    </PermissionGate>
  );
}
