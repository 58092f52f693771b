import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { LoadingState } from '#src/components/ui/states.tsx';
import { accountApi } from './api/account-api.ts';
import { AuthLayout, FormAlert, FormSuccess, linkStyle } from './components/auth-layout.tsx';

/** One request per link even when an effect runs twice: a confirmation code works once. */
const confirmations = new Map<string, Promise<unknown>>();
function confirmOnce(query: { tenant: string; userId: string; code: string }) {
  const key = `${query.tenant}|${query.userId}|${query.code}`;
  let pending = confirmations.get(key);
  if (!pending) {
    pending = accountApi.confirmEmail(query);
    confirmations.set(key, pending);
  }
  return pending;
}

/** /confirm-email?tenant=&userId=&code= — the landing page of the confirmation link: GET /users/confirm-email with the same query. */
export default function ConfirmEmailPage() {
  const { t } = useTranslation('auth');
  const [search] = useSearchParams();
  const tenant = search.get('tenant') ?? '';
  const userId = search.get('userId') ?? '';
  const code = search.get('code') ?? '';
  const complete = Boolean(tenant && userId && code);
  const [state, setState] = useState<{ status: 'confirming' | 'confirmed' | 'failed' }>({ status: 'confirming' });

  useEffect(() => {
    if (!complete) return;
    let current = true;
    confirmOnce({ tenant, userId, code }).then(
      () => current && setState({ status: 'confirmed' }),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [complete, tenant, userId, code]);

  return (
    <AuthLayout
      title={t('confirm.title')}
      footer={
        <Link to="/login" className={linkStyle}>
          {t('common.goToSignIn')}
        </Link>
      }
    >
      {!complete ? (
        <FormAlert>{t('confirm.incompleteLink')}</FormAlert>
      ) : state.status === 'confirming' ? (
        <LoadingState label={t('confirm.confirming')} />
      ) : state.status === 'confirmed' ? (
        <FormSuccess>{t('confirm.done')}</FormSuccess>
      ) : (
        <FormAlert>{t('confirm.failed')}</FormAlert>
      )}
    </AuthLayout>
  );
}
