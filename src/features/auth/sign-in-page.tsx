import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { loadAuthSession, useAuthSnapshot } from '#src/app/auth/auth-session-loader.ts';
import { authUserStore, hasSession, safeRedirect } from '#src/app/auth/auth-user-store.ts';
import { AuthLayout, FormAlert, FormSuccess, formStyle, linkStyle } from './components/auth-layout.tsx';
import { isEmail, reasonOf } from './components/password-rules.ts';

// The code step comes with the actor, after a submit: not part of the first render of /login.
const CodeStep = lazy(async () => ({ default: (await import('./components/code-step.tsx')).CodeStep }));

/**
 * /login — spec §4 "Sign-in flow": credentials, then the e-mailed code (with resend). The form
 * renders before the auth-session actor's code has loaded; a submit waits for it.
 */
export default function SignInPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const snapshot = useAuthSnapshot();
  const signedIn = useStoreValue(authUserStore, (s) => hasSession(s.context));
  const redirectUrl = useStoreValue(authUserStore, (s) => s.context.redirectUrl);
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [starting, setStarting] = useState(false);
  const [confirmation, setConfirmation] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [confirmationFailure, setConfirmationFailure] = useState<string | null>(null);

  // Signed in (here, or in another tab): honour the remembered redirect URL, once — clearing it
  // re-runs this effect before the router has left the page, and must not send the user home.
  const leaving = useRef(false);
  useEffect(() => {
    if (!signedIn || leaving.current) return;
    leaving.current = true;
    const target = safeRedirect(redirectUrl) ?? '/';
    void loadAuthSession().then(({ authSession }) => authSession.send({ type: 'redirect.remember', url: null }));
    navigate(target, { replace: true });
  }, [signedIn, redirectUrl, navigate]);

  if (snapshot?.matches('awaitingCode')) {
    return (
      <Suspense fallback={null}>
        <CodeStep snapshot={snapshot} />
      </Suspense>
    );
  }

  const emailError = touched ? (!email.trim() ? t('validation.emailRequired') : !isEmail(email) ? t('validation.emailInvalid') : null) : null;
  const passwordError = touched && !password ? t('validation.passwordRequired') : null;
  const busy = starting || Boolean(snapshot?.hasTag('busy'));
  const failure = snapshot?.matches('signedOut') ? snapshot.context.errorText : null;

  /** POST /users/resend-verification: the account exists but its address is not confirmed yet. */
  async function resendConfirmation() {
    setConfirmation('sending');
    const { accountApi } = await import('./api/account-api.ts');
    try {
      await accountApi.resendVerification({ email: email.trim(), redirectUrl: '/login' });
      setConfirmation('sent');
    } catch (error) {
      setConfirmation('idle');
      setConfirmationFailure(reasonOf(error));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!email.trim() || !isEmail(email) || !password) return;
    setStarting(true);
    try {
      const { authSession } = await loadAuthSession();
      authSession.send({ type: 'login.submit', email: email.trim(), password });
    } finally {
      setStarting(false);
    }
  }

  return (
    <AuthLayout
      title={t('signIn.title')}
      description={t('signIn.description')}
      footer={
        <>
          <Link to="/forgot-password" className={linkStyle}>
            {t('signIn.forgot')}
          </Link>
          <Link to="/register" className={linkStyle}>
            {t('signIn.register')}
          </Link>
        </>
      }
    >
      <form className={formStyle} onSubmit={submit} noValidate>
        <FormAlert>{failure ? t(`reason.${failure}`, { defaultValue: t('reason.failed') }) : null}</FormAlert>
        {confirmationFailure ? (
          <FormAlert testId="confirmation-error">{t(`reason.${confirmationFailure}`, { defaultValue: t('reason.failed') })}</FormAlert>
        ) : null}
        {failure === 'emailNotConfirmed' ? (
          confirmation === 'sent' ? (
            <FormSuccess>{t('signIn.confirmationSent', { email: email.trim() })}</FormSuccess>
          ) : (
            <Button variant="outline" size="sm" loading={confirmation === 'sending'} onClick={() => void resendConfirmation()}>
              {t('signIn.resendConfirmation')}
            </Button>
          )
        ) : null}
        <TextField
          label={t('field.email')}
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          error={emailError}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={t('field.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          error={passwordError}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" loading={busy} className={css({ width: '100%' })}>
          {busy ? t('signIn.submitting') : t('signIn.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
