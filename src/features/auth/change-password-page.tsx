import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { loadAuthSession } from '#src/app/auth/auth-session-loader.ts';
import { authUserStore } from '#src/app/auth/auth-user-store.ts';
import { accountApi } from './api/account-api.ts';
import { FormAlert, FormSuccess, formStyle } from './components/auth-layout.tsx';
import { PASSWORD_MIN_LENGTH, passwordProblem, problemErrors, reasonOf } from './components/password-rules.ts';

/**
 * /change-password (signed in) — POST /users/change-password/?userId= {currentPassword,
 * newPassword, confirmNewPassword}. The answer's new access token replaces this session's; every
 * other session has ended on the server.
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation('auth');
  const userId = useStoreValue(authUserStore, (s) => s.context.user?.user_id ?? null);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<{ status: 'idle' | 'saving' | 'done' } | { status: 'failed'; reason: string; errors: Record<string, string[]> | null }>({
    status: 'idle',
  });
  const problem = touched ? passwordProblem(next) : null;
  const mismatch = touched && !problem && next !== confirm;
  const serverErrors = state.status === 'failed' ? state.errors : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!current || passwordProblem(next) || next !== confirm || !userId) return;
    setState({ status: 'saving' });
    try {
      const answer = await accountApi.changePassword(userId, { currentPassword: current, newPassword: next, confirmNewPassword: confirm });
      (await loadAuthSession()).authSession.send({ type: 'token.replaced', token: answer.token });
      setCurrent('');
      setNext('');
      setConfirm('');
      setTouched(false);
      setState({ status: 'done' });
    } catch (error) {
      setState({ status: 'failed', reason: reasonOf(error), errors: problemErrors(error) });
    }
  }

  return (
    <>
      <PageHeader title={t('change.title')} description={t('change.description')} />
      <div className={`${card} ${css({ p: '5', maxWidth: '32rem' })}`}>
        <form className={formStyle} onSubmit={submit} noValidate>
          {state.status === 'done' ? <FormSuccess>{t('change.done')}</FormSuccess> : null}
          <FormAlert>{state.status === 'failed' && !serverErrors ? t(`reason.${state.reason}`, { defaultValue: t('reason.failed') }) : null}</FormAlert>
          <TextField
            label={t('field.currentPassword')}
            type="password"
            name="currentPassword"
            autoComplete="current-password"
            required
            value={current}
            error={touched && !current ? t('validation.passwordRequired') : fieldError(serverErrors, 'currentPassword')}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <TextField
            label={t('field.newPassword')}
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            value={next}
            hint={t('validation.passwordHint', { count: PASSWORD_MIN_LENGTH })}
            error={problem ? t(`validation.password.${problem}`, { count: PASSWORD_MIN_LENGTH }) : fieldError(serverErrors, 'newPassword')}
            onChange={(e) => setNext(e.target.value)}
          />
          <TextField
            label={t('field.confirmNewPassword')}
            type="password"
            name="confirmNewPassword"
            autoComplete="new-password"
            required
            value={confirm}
            error={mismatch ? t('validation.mismatch') : fieldError(serverErrors, 'confirmNewPassword')}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Button type="submit" loading={state.status === 'saving'}>
            {t('change.submit')}
          </Button>
        </form>
      </div>
    </>
  );
}
