import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { accountApi } from './api/account-api.ts';
import { AuthLayout, FormAlert, FormSuccess, formStyle, linkStyle } from './components/auth-layout.tsx';
import { isEmail, reasonOf } from './components/password-rules.ts';

/** /forgot-password — POST /users/forgot-password {email,redirectUrl}; the same answer whatever the address. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [search] = useSearchParams();
  const tenant = search.get('tenant');
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<{ status: 'idle' | 'sending' | 'sent' } | { status: 'failed'; reason: string }>({ status: 'idle' });
  const emailError = touched ? (!email.trim() ? t('validation.emailRequired') : !isEmail(email) ? t('validation.emailInvalid') : null) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!isEmail(email)) return;
    setState({ status: 'sending' });
    try {
      await accountApi.forgotPassword({ email: email.trim(), redirectUrl: '/login' }, tenant);
      setState({ status: 'sent' });
    } catch (error) {
      setState({ status: 'failed', reason: reasonOf(error) });
    }
  }

  return (
    <AuthLayout
      title={t('forgot.title')}
      description={t('forgot.description')}
      footer={
        <Link to="/login" className={linkStyle}>
          {t('common.backToSignIn')}
        </Link>
      }
    >
      {state.status === 'sent' ? (
        <FormSuccess>{t('forgot.sent', { email: email.trim() })}</FormSuccess>
      ) : (
        <form className={formStyle} onSubmit={submit} noValidate>
          <FormAlert>{state.status === 'failed' ? t(`reason.${state.reason}`, { defaultValue: t('reason.failed') }) : null}</FormAlert>
          <TextField
            label={t('field.email')}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            error={emailError}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" loading={state.status === 'sending'} className={css({ width: '100%' })}>
            {t('forgot.submit')}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
