import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import type { AuthSessionMachine } from '#machines/auth-session.machine.ts';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { PinInput, type PinInputHandle } from '#src/components/ui/pin-input.tsx';
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
  const send = (event: Parameters<NonNullable<ReturnType<typeof loadedAuthSession>>['authSession']['send']>[0]) => loadedAuthSession()?.authSession.send(event);
  const verifying = snapshot.matches({ awaitingCode: { code: 'verifying' } });
  const coolingDown = snapshot.matches({ awaitingCode: { resend: 'coolingDown' } });
  const sending = snapshot.matches({ awaitingCode: { resend: 'sending' } });
  const left = useCountdown(coolingDown, snapshot.context.resendAfterSeconds, snapshot.context.challengeToken);
  const [resent, setResent] = useState(false);
  const failure = snapshot.context.errorText;
  const valid = /^\d{6}$/.test(code);

  const pin = useRef<PinInputHandle>(null);
  // Start again on an empty first box after a resend (a new challenge) or a refused code; the
  // field is fresh, so it shows no format error until the next attempt.
  const startOver = () => {
    setTouched(false);
    pin.current?.reset();
  };
  useEffect(() => {
    if (snapshot.context.challengeToken && resent) startOver();
  }, [snapshot.context.challengeToken, resent]);
  const wasVerifying = useRef(false);
  useEffect(() => {
    if (wasVerifying.current && !verifying && failure) startOver();
    wasVerifying.current = verifying;
  }, [verifying, failure]);

  function verify(value: string) {
    setTouched(true);
    if (!/^\d{6}$/.test(value) || verifying) return;
    send({ type: 'otp.submit', code: value });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    verify(code);
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
        <PinInput
          ref={pin}
          label={t('field.code')}
          name="code"
          autoFocus
          value={code}
          hint={t('code.hint')}
          error={touched && !valid ? t('validation.codeFormat') : null}
          onChange={setCode}
          // A complete code, typed or pasted, is sent at once.
          onComplete={verify}
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
