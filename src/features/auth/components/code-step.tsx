import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import type { AuthSessionMachine } from '#machines/auth-session.machine.ts';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { loadedAuthSession } from '#src/app/auth/auth-session-loader.ts';
import { AuthLayout, FormAlert, FormSuccess, formStyle } from './auth-layout.tsx';

type Snapshot = SnapshotFrom<AuthSessionMachine>;

/** Seconds left of the resend cooldown, counted down while the machine is cooling down. */
function useCountdown(active: boolean, seconds: number, restartKey: unknown): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (!active) return;
    setLeft(seconds);
    const started = Date.now();
    const timer = setInterval(() => setLeft(Math.max(0, seconds - Math.floor((Date.now() - started) / 1000))), 250);
    return () => clearInterval(timer);
  }, [active, seconds, restartKey]);
  return active ? left : 0;
}

/** The second step of sign-in: the 6-digit code from the e-mail, with resend and its cooldown. */
export function CodeStep({ snapshot }: { snapshot: Snapshot }) {
  const { t } = useTranslation('auth');
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const send = (event: Parameters<NonNullable<ReturnType<typeof loadedAuthSession>>['authSession']['send']>[0]) =>
    loadedAuthSession()?.authSession.send(event);
  const verifying = snapshot.matches({ awaitingCode: { code: 'verifying' } });
  const coolingDown = snapshot.matches({ awaitingCode: { resend: 'coolingDown' } });
  const sending = snapshot.matches({ awaitingCode: { resend: 'sending' } });
  const left = useCountdown(coolingDown, snapshot.context.resendAfterSeconds, snapshot.context.challengeToken);
  const [resent, setResent] = useState(false);
  const failure = snapshot.context.errorText;
  const valid = /^\d{6}$/.test(code);

  // A new challenge after a resend: say so, and clear the old code.
  useEffect(() => {
    if (snapshot.context.challengeToken && resent) setCode('');
  }, [snapshot.context.challengeToken, resent]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid) return;
    send({ type: 'otp.submit', code });
  }

  const failureText = failure
    ? failure === 'codeWrong' && snapshot.context.remainingAttempts !== null
      ? t('reason.codeWrongRemaining', { count: snapshot.context.remainingAttempts })
      : t(`reason.${failure}`, { defaultValue: t('reason.failed') })
    : null;

  return (
    <AuthLayout title={t('code.title')} description={t('code.description', { email: snapshot.context.email ?? '' })}>
      <form className={formStyle} onSubmit={submit} noValidate>
        <FormAlert>{failureText}</FormAlert>
        {resent && !failure && coolingDown ? <FormSuccess>{t('code.resent')}</FormSuccess> : null}
        <TextField
          label={t('field.code')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          autoFocus
          value={code}
          hint={t('code.hint')}
          error={touched && !valid ? t('validation.codeFormat') : null}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
        />
        <Button type="submit" loading={verifying} className={css({ width: '100%' })}>
          {verifying ? t('code.verifying') : t('code.submit')}
        </Button>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', justifyContent: 'space-between', alignItems: 'center' })}>
          <Button
            variant="outline"
            size="sm"
            loading={sending}
            disabled={coolingDown || verifying}
            onClick={() => {
              setResent(true);
              send({ type: 'otp.resend' });
            }}
          >
            {coolingDown ? t('code.resendIn', { count: left }) : t('code.resend')}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => send({ type: 'login.cancel' })}>
            {t('code.otherAccount')}
          </Button>
        </div>
      </form>
    </AuthLayout>
  );
}
