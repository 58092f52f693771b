import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { rememberRedirect } from '#src/app/auth/auth-session-loader.ts';
import { safeRedirect } from '#src/app/auth/auth-user-store.ts';
import { accountApi } from './api/account-api.ts';
import { AuthLayout, FormAlert, FormSuccess, formStyle, linkStyle } from './components/auth-layout.tsx';
import { PASSWORD_MIN_LENGTH, passwordProblem, problemErrors, reasonOf } from './components/password-rules.ts';

/**
 * /reset-password?tenant=&email=&token= (reset link, 30 min) and /first-login?… (invitation,
 * 72 h: "set your password"): POST /users/reset-password {email,password,token,isFirstTimeLogin}.
 */
export function SetPasswordPage({ firstTime }: { firstTime: boolean }) {
  const { t } = useTranslation('auth');
  const [search] = useSearchParams();
  const email = search.get('email') ?? '';
  const token = search.get('token') ?? '';
  const tenant = search.get('tenant');
  const next = safeRedirect(search.get('redirectUrl'));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<{ status: 'idle' | 'saving' | 'done' } | { status: 'failed'; reason: string; errors: Record<string, string[]> | null }>({
    status: 'idle',
  });
  const prefix = firstTime ? 'firstLogin' : 'reset';
  const [newLink, setNewLink] = useState<'idle' | 'sending' | 'sent'>('idle');

  if (!email || !token) {
    return (
      <AuthLayout
        title={t(`${prefix}.title`)}
        footer={
          <Link to="/forgot-password" className={linkStyle}>
            {t('reset.askAgain')}
          </Link>
        }
      >
        <FormAlert>{t('reset.incompleteLink')}</FormAlert>
      </AuthLayout>
    );
  }

  const problem = touched ? passwordProblem(password) : null;
  const mismatch = touched && !problem && password !== confirm;
  const serverErrors = state.status === 'failed' ? state.errors : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (passwordProblem(password) || password !== confirm) return;
    setState({ status: 'saving' });
    try {
      await accountApi.resetPassword({ email, password, token, isFirstTimeLogin: firstTime }, tenant);
      // The link's redirectUrl: where to land after signing in with the new password.
      if (next) rememberRedirect(next);
      setState({ status: 'done' });
    } catch (error) {
      setState({ status: 'failed', reason: reasonOf(error), errors: problemErrors(error) });
    }
  }

  /** POST /users/resendemailtofirsttime: an invitation link that no longer works gets a new one. */
  async function askNewLink() {
    setNewLink('sending');
    try {
      await accountApi.resendFirstTimeEmail({ email, redirectUrl: next ?? '/login' }, tenant);
      setNewLink('sent');
    } catch (error) {
      setNewLink('idle');
      setState({ status: 'failed', reason: reasonOf(error), errors: null });
    }
  }

  const signInHref = `/login?email=${encodeURIComponent(email)}`;
  return (
    <AuthLayout title={t(`${prefix}.title`)} description={t(`${prefix}.description`, { email })}>
      {state.status === 'done' ? (
        <>
          <FormSuccess>{t(`${prefix}.done`)}</FormSuccess>
          <Link to={signInHref} className={linkStyle}>
            {t('common.goToSignIn')}
          </Link>
        </>
      ) : (
        <form className={formStyle} onSubmit={submit} noValidate>
          <FormAlert>{state.status === 'failed' && !serverErrors ? t(`reason.${state.reason}`, { defaultValue: t('reason.linkFailed') }) : null}</FormAlert>
          <TextField
            label={t('field.newPassword')}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            value={password}
            hint={t('validation.passwordHint', { count: PASSWORD_MIN_LENGTH })}
            error={problem ? t(`validation.password.${problem}`, { count: PASSWORD_MIN_LENGTH }) : fieldError(serverErrors, 'password')}
            onChange={(e) => setPassword(e.target.value)}
          />
          <TextField
            label={t('field.confirmPassword')}
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={confirm}
            error={mismatch ? t('validation.mismatch') : null}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Button type="submit" loading={state.status === 'saving'} className={css({ width: '100%' })}>
            {t(`${prefix}.submit`)}
          </Button>
          {firstTime && state.status === 'failed' && !serverErrors ? (
            newLink === 'sent' ? (
              <FormSuccess>{t('firstLogin.newLinkSent', { email })}</FormSuccess>
            ) : (
              <Button variant="outline" size="sm" loading={newLink === 'sending'} onClick={() => void askNewLink()}>
                {t('firstLogin.newLink')}
              </Button>
            )
          ) : null}
        </form>
      )}
    </AuthLayout>
  );
}

export default function ResetPasswordPage() {
  return <SetPasswordPage firstTime={false} />;
}
