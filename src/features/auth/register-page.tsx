import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { DateField, today } from '#src/components/ui/date-field.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { useEmailCheck } from '#src/lib/use-email-check.ts';
import { accountApi, type SelfRegistration } from './api/account-api.ts';
import { AuthLayout, FormAlert, FormSuccess, formStyle, linkStyle } from './components/auth-layout.tsx';
import { isEmail, PASSWORD_MIN_LENGTH, passwordProblem, problemErrors, reasonOf } from './components/password-rules.ts';

type Fields = Required<Omit<SelfRegistration, 'redirectUrl'>>;
const empty: Fields = { firstName: '', lastName: '', email: '', userName: '', password: '', confirmPassword: '', phoneNumber: '', dateOfBirth: '' };

/** What the client checks before sending (the server checks again, and more). */
function localProblems(fields: Fields): Partial<Record<keyof Fields, string>> {
  const problems: Partial<Record<keyof Fields, string>> = {};
  if (!fields.firstName.trim()) problems.firstName = 'validation.required';
  if (!fields.lastName.trim()) problems.lastName = 'validation.required';
  if (!fields.email.trim()) problems.email = 'validation.emailRequired';
  else if (!isEmail(fields.email)) problems.email = 'validation.emailInvalid';
  if (!/^[A-Za-z0-9][A-Za-z0-9._@+-]{2,63}$/.test(fields.userName)) problems.userName = 'validation.userName';
  const password = passwordProblem(fields.password);
  if (password) problems.password = `validation.password.${password}`;
  else if (fields.password !== fields.confirmPassword) problems.confirmPassword = 'validation.mismatch';
  if (fields.phoneNumber && !/^\+?[0-9 ()-]{6,31}$/.test(fields.phoneNumber)) problems.phoneNumber = 'validation.phone';
  return problems;
}

/** /register — self-registration (POST /users/self-register); a confirmation link is e-mailed. */
export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const tenant = useSearchParams()[0].get('tenant');
  const [fields, setFields] = useState<Fields>(empty);
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<{ status: 'idle' | 'saving' | 'done' } | { status: 'failed'; reason: string; errors: Record<string, string[]> | null }>({
    status: 'idle',
  });
  const problems = touched ? localProblems(fields) : {};
  const serverErrors = state.status === 'failed' ? state.errors : null;
  const errorOf = (name: keyof Fields) => (problems[name] ? t(problems[name]!, { count: PASSWORD_MIN_LENGTH }) : fieldError(serverErrors, name));
  const set = (name: keyof Fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value }));
  // The server's word on the address as soon as the field is left (spec §7 validateemail).
  const emailCheck = useEmailCheck(fields.email);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(localProblems(fields)).length) return;
    setState({ status: 'saving' });
    const body: SelfRegistration = { ...fields, email: fields.email.trim(), redirectUrl: '/login' };
    if (!body.phoneNumber) delete body.phoneNumber;
    if (!body.dateOfBirth) delete body.dateOfBirth;
    try {
      await accountApi.selfRegister(body, tenant);
      setState({ status: 'done' });
    } catch (error) {
      setState({ status: 'failed', reason: reasonOf(error), errors: problemErrors(error) });
    }
  }

  const field = (name: keyof Fields, extra: Record<string, unknown> = {}) => ({
    name,
    value: fields[name],
    error: errorOf(name),
    onChange: set(name),
    ...extra,
  });

  return (
    <AuthLayout
      title={t('register.title')}
      description={t('register.description')}
      footer={
        <Link to="/login" className={linkStyle}>
          {t('register.haveAccount')}
        </Link>
      }
    >
      {state.status === 'done' ? (
        <FormSuccess>{t('register.done', { email: fields.email.trim() })}</FormSuccess>
      ) : (
        <form className={formStyle} onSubmit={submit} noValidate>
          <FormAlert>{state.status === 'failed' && !serverErrors ? t(`reason.${state.reason}`, { defaultValue: t('reason.failed') }) : null}</FormAlert>
          <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', xsm: '1fr 1fr' }, gap: '4' })}>
            <TextField label={t('field.firstName')} autoComplete="given-name" required {...field('firstName')} />
            <TextField label={t('field.lastName')} autoComplete="family-name" required {...field('lastName')} />
          </div>
          <TextField
            label={t('field.email')}
            type="email"
            autoComplete="email"
            required
            {...field('email')}
            error={errorOf('email') ?? emailCheck.error}
            hint={emailCheck.hint}
            onBlur={(event) => void emailCheck.check(event.target.value)}
          />
          <TextField label={t('field.userName')} autoComplete="username" required hint={t('validation.userNameHint')} {...field('userName')} />
          <TextField
            label={t('field.password')}
            type="password"
            autoComplete="new-password"
            required
            hint={t('validation.passwordHint', { count: PASSWORD_MIN_LENGTH })}
            {...field('password')}
          />
          <TextField label={t('field.confirmPassword')} type="password" autoComplete="new-password" required {...field('confirmPassword')} />
          <TextField label={t('field.phoneNumber')} type="tel" autoComplete="tel" {...field('phoneNumber')} />
          <DateField
            label={t('field.dateOfBirth')}
            name="dateOfBirth"
            value={fields.dateOfBirth}
            onChange={(value) => set('dateOfBirth')({ target: { value } })}
            error={errorOf('dateOfBirth')}
            max={today()}
          />
          <Button type="submit" loading={state.status === 'saving'} className={css({ width: '100%' })}>
            {t('register.submit')}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
