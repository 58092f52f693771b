import { PageSkeleton } from '#src/components/ui/skeleton.tsx';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { useSearchParams } from 'react-router-dom';
import { NotificationsPage } from '#src/features/inbox/index.ts';
import { css } from '#styled-system/css';
import { authUserStore } from '#src/app/auth/auth-user-store.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { ComboboxField } from '#src/components/ui/combobox.tsx';
import { fieldError } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usersApi, type UserLanguage } from './api/users-api.ts';
import { languageName } from '#src/lib/language-name.ts';
import { ActiveSessions, NotificationPreferences, PreferredLanguage, ProfileDetails, ProfilePhoto, RecentSignIns } from './profile-sections.tsx';

/** Same shape the server accepts (docs/decisions/0045): a BCP 47 tag such as en-IN, hi, gu. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
/** The languages offered by name; any other BCP 47 tag can still be typed. */
const suggestions = [
  'en-IN',
  'en-US',
  'en-GB',
  'hi',
  'gu',
  'mr',
  'ta',
  'te',
  'bn',
  'kn',
  'ml',
  'pa',
  'or',
  'as',
  'ur',
  'sa',
  'ne',
  'sd',
  'ks',
  'kok',
  'fr',
  'es',
  'de',
  'pt',
  'it',
  'ar',
  'zh',
  'ja',
  'ru',
];

/** The tag the user meant: a suggestion chosen or named exactly, or a tag typed as is. */
export function languageTagOf(text: string, chosen: string | null, locale: string): string {
  if (chosen) return chosen;
  const typed = text.trim();
  const named = suggestions.find((code) =>
    [languageName(code, locale), languageName(code, code)].some((name) => name.localeCompare(typed, locale, { sensitivity: 'base' }) === 0),
  );
  return named ?? typed;
}

/** The languages a user speaks, in their profile: list, add, remove. */
export function UserLanguages() {
  const { t, i18n } = useTranslation('users');
  const [languages, setLanguages] = useState<UserLanguage[] | null>(null);
  const [loadFailure, setLoadFailure] = useState<unknown>(null);
  const [code, setCode] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]> | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const loadText = useErrorText(loadFailure);
  const failureText = useErrorText(failure);

  // Offered by name in the screen's language, found by that name, their own name or the tag.
  const languageItems = useMemo(() => {
    const spoken = new Set((languages ?? []).map((l) => l.languageCode.toLowerCase()));
    return suggestions
      .filter((code) => !spoken.has(code.toLowerCase()))
      .map((code) => ({ value: code, label: languageName(code, i18n.language), keywords: [languageName(code, code), code] }))
      .sort((a, b) => a.label.localeCompare(b.label, i18n.language));
  }, [languages, i18n.language]);

  const load = useCallback(() => {
    setLoadFailure(null);
    usersApi.languages().then(setLanguages, setLoadFailure);
  }, []);
  useEffect(load, [load]);

  const add = async () => {
    const tag = languageTagOf(code, chosen, i18n.language);
    if (!LANGUAGE_TAG.test(tag)) {
      setErrors({ languageCode: [t('languages.badTag')] });
      return;
    }
    setErrors(null);
    setFailure(null);
    setBusy(true);
    try {
      const added = await usersApi.addLanguage(tag);
      setLanguages((list) => [...(list ?? []), added]);
      setCode('');
      setChosen(null);
      void notify.success(t('languages.added', { name: languageName(added.languageCode, i18n.language) }));
    } catch (error) {
      const fields = (error as { errors?: Record<string, string[]> })?.errors;
      if (fields) setErrors(fields);
      else setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (language: UserLanguage) => {
    setRemoving(language.id);
    try {
      await usersApi.removeLanguage(language.id);
      setLanguages((list) => (list ?? []).filter((l) => l.id !== language.id));
    } catch (error) {
      void notify.error(error);
    } finally {
      setRemoving(null);
    }
  };

  return (
    <section aria-labelledby="languages-title" className={css({ p: '4', display: 'flex', flexDirection: 'column', gap: '3' }) + ' ' + card}>
      <h2 id="languages-title" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        {t('languages.title')}
      </h2>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('languages.intro')}</p>
      {loadFailure ? (
        <ErrorState message={loadText} onRetry={load} />
      ) : languages === null ? (
        <PageSkeleton />
      ) : languages.length === 0 ? (
        <EmptyState title={t('languages.none')} />
      ) : (
        <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2' })} data-testid="language-list">
          {languages.map((language) => (
            <li key={language.id} className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
              <span className={css({ flex: '1' })} lang={language.languageCode}>
                {languageName(language.languageCode, i18n.language)}
              </span>
              <Button
                size="sm"
                variant="ghost"
                loading={removing === language.id}
                onClick={() => void remove(language)}
                aria-label={t('languages.removeNamed', { name: languageName(language.languageCode, i18n.language) })}
              >
                {t('languages.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        className={css({ display: 'flex', gap: '2', alignItems: 'flex-start', flexWrap: 'wrap' })}
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <ComboboxField
          label={t('languages.code')}
          hint={t('languages.codeHint')}
          items={languageItems}
          inputValue={code}
          onInputValueChange={setCode}
          value={chosen}
          onValueChange={setChosen}
          maxLength={35}
          error={fieldError(errors, 'languageCode')}
          className={css({ flex: '1', minWidth: '12rem' })}
        />
        <Button type="submit" loading={busy} className={css({ mt: '6' })}>
          {t('languages.add')}
        </Button>
      </form>
      {failureText ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </section>
  );
}

/** /account (issue 21): who you are and what you may change, your language, notification settings, sessions and sign-ins. */
export default function AccountPage() {
  // The bell's list (issue 21) is /account?view=notifications: no route entry of its own in the first render of / (decision 0262).
  const [search] = useSearchParams();
  return search.get('view') === 'notifications' ? <NotificationsPage /> : <Profile />;
}

function Profile() {
  const { t } = useTranslation('users');
  const user = useSelector(authUserStore, (s) => s.context.user);
  return (
    <section aria-labelledby="account-title" className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <PageHeader
        id="account-title"
        title={t('account.title')}
        description={user ? t('account.signedInAs', { name: [user.name, user.surname].filter(Boolean).join(' ') || user.emailaddress || '' }) : undefined}
        actions={
          <Link to="/account/login-history" className={css({ color: 'primary.dark', textDecoration: 'underline', fontSize: 'sm' })}>
            {t('account.loginHistory')}
          </Link>
        }
      />
      <ProfileDetails />
      <ProfilePhoto />
      <PreferredLanguage />
      <UserLanguages />
      <NotificationPreferences />
      <ActiveSessions />
      <RecentSignIns />
    </section>
  );
}
