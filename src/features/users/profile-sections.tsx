import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { signOut } from '#src/app/auth/auth-session-loader.ts';
import { authUserStore } from '#src/app/auth/auth-user-store.ts';
import { showProfilePhoto, useProfilePhoto } from '#src/app/auth/profile-photo.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { chooseAndSaveLanguage } from '#src/app/settings/server-language.ts';
import { Avatar } from '#src/components/ui/avatar.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { card } from '#src/components/ui/page-header.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { ErrorState } from '#src/components/ui/states.tsx';
import { inboxApi, type PreferenceRow } from '#src/features/inbox/index.ts';
import { locales, type Locale } from '#src/lib/config.ts';
import { useFormat } from '#src/lib/format.ts';
import { languageName } from '#src/lib/language-name.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { MAX_PHOTO_BYTES, PHOTO_TYPES, profileApi, type Device, type Profile, type ProfileSession, type SignInEntry } from './api/profile-api.ts';

const section = css({ display: 'flex', flexDirection: 'column', gap: '3', p: '4' });
const heading = css({ fontSize: 'md', fontWeight: 'semibold' });
const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' }, gap: '3' });
const list = css({ display: 'flex', flexDirection: 'column' });
const item = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '3',
  py: '2',
  borderTopWidth: '1px',
  borderColor: 'border',
  _first: { borderTopWidth: 0 },
});
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

const errorsOf = (error: unknown) => (error as { errors?: Record<string, string[]> } | null)?.errors ?? null;

/** Loads once; `reload` asks again. */
function useLoad<T>(load: () => Promise<T>) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (v) => live && setValue(v),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one load per round
  }, [round]);
  return { value, setValue, error, reload: () => setRound((r) => r + 1) };
}

export function deviceText(t: (key: string, options?: Record<string, unknown>) => string, device: Device): string {
  if (!device.browser && !device.os) return t('profile.unknownDevice');
  if (device.browser && device.os) return t('profile.deviceOn', { browser: device.browser, os: device.os });
  return (device.browser ?? device.os)!;
}

/** Name, e-mail, phone, date of birth and the avatar; the person edits what the server lets them (decision 0261). */
export function ProfileDetails() {
  const { t, i18n } = useTranslation('users');
  const { value: profile, setValue: setProfile, error, reload } = useLoad(profileApi.get);
  const [draft, setDraft] = useState<Partial<Profile>>({});
  const [errors, setErrors] = useState<Record<string, string[]> | null>(null);
  const [busy, setBusy] = useState(false);
  const errorText = useErrorText(error);
  const photo = useProfilePhoto(profile?.id);
  if (error) return <ErrorState message={errorText ?? undefined} onRetry={reload} />;
  if (!profile) return <ListSkeleton columns={2} rows={3} label={t('profile.loading')} testId="profile-loading" />;
  const value = (field: 'firstName' | 'lastName' | 'phoneNumber' | 'dateOfBirth') => (draft[field] ?? profile[field] ?? '') as string;
  const editable = (field: string) => profile.editable.includes(field);
  const set = (field: 'firstName' | 'lastName' | 'phoneNumber' | 'dateOfBirth') => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: e.target.value }));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors(null);
    try {
      const saved = await profileApi.update({
        firstName: value('firstName'),
        lastName: value('lastName'),
        phoneNumber: value('phoneNumber') || null,
        dateOfBirth: value('dateOfBirth') || null,
      });
      setProfile(saved);
      setDraft({});
      void notify.success(t('profile.saved'));
    } catch (failure) {
      const fields = errorsOf(failure);
      if (fields) setErrors(fields);
      else void notify.error(failure);
    } finally {
      setBusy(false);
    }
  };
  const fullName = [profile.firstName, profile.lastName].filter(Boolean).join(' ') || profile.email;
  return (
    <form className={`${card} ${section}`} onSubmit={save} aria-labelledby="profile-details-title" noValidate>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
        <Avatar name={fullName} size="md" src={photo} />
        <div>
          <h2 id="profile-details-title" className={heading}>
            {fullName}
          </h2>
          <p className={muted}>{profile.userName}</p>
        </div>
      </div>
      <div className={grid}>
        <TextField
          label={t('profile.firstName')}
          value={value('firstName')}
          onChange={set('firstName')}
          disabled={!editable('firstName')}
          error={fieldError(errors, 'firstName')}
          required
        />
        <TextField
          label={t('profile.lastName')}
          value={value('lastName')}
          onChange={set('lastName')}
          disabled={!editable('lastName')}
          error={fieldError(errors, 'lastName')}
        />
        <TextField label={t('profile.email')} value={profile.email} readOnly hint={t('profile.emailHint')} />
        <TextField
          label={t('profile.phone')}
          type="tel"
          value={value('phoneNumber')}
          onChange={set('phoneNumber')}
          disabled={!editable('phoneNumber')}
          error={fieldError(errors, 'phoneNumber')}
        />
        <TextField
          label={t('profile.dateOfBirth')}
          type="date"
          value={value('dateOfBirth')}
          onChange={set('dateOfBirth')}
          disabled={!editable('dateOfBirth')}
          error={fieldError(errors, 'dateOfBirth')}
        />
      </div>
      {profile.languages.length ? (
        <p className={muted}>{t('profile.languages', { list: profile.languages.map((code) => languageName(code, i18n.language)).join(', ') })}</p>
      ) : null}
      <Button type="submit" loading={busy} className={css({ alignSelf: 'flex-start' })}>
        {t('profile.save')}
      </Button>
    </form>
  );
}

/** The photo shown as the avatar (docs/decisions/0264): upload one, or remove it for the initials. */
export function ProfilePhoto() {
  const { t } = useTranslation('users');
  const user = useStoreValue(authUserStore, (s) => s.context.user);
  const userId = user?.user_id ?? null;
  const photo = useProfilePhoto(userId);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const name = [user?.name, user?.surname].filter((part) => typeof part === 'string' && part).join(' ') || String(user?.emailaddress ?? '');
  const run = async (kind: 'upload' | 'remove') => {
    if (!userId) return;
    setBusy(kind);
    try {
      if (kind === 'upload') {
        await profileApi.uploadPhoto(files[0]);
        showProfilePhoto(userId, files[0]);
        setFiles([]);
        void notify.success(t('profile.photoSaved'));
      } else {
        await profileApi.removePhoto();
        showProfilePhoto(userId, null);
        void notify.success(t('profile.photoRemoved'));
      }
    } catch (failure) {
      void notify.error(failure);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className={`${card} ${section}`} aria-labelledby="profile-photo-title" data-testid="profile-photo">
      <h2 id="profile-photo-title" className={heading}>
        {t('profile.photoTitle')}
      </h2>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
        <Avatar name={name} size="md" src={photo} />
        <p className={muted} data-testid="profile-photo-state">
          {photo ? t('profile.photoShown') : t('profile.photoNone')}
        </p>
      </div>
      <FileUpload
        label={t('profile.photoChoose')}
        hint={t('profile.photoHint')}
        files={files}
        onChange={setFiles}
        maxFiles={1}
        maxBytes={MAX_PHOTO_BYTES}
        accept={PHOTO_TYPES}
        disabled={busy !== null}
      />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button disabled={!files.length || busy !== null} loading={busy === 'upload'} onClick={() => void run('upload')}>
          {t('profile.photoUpload')}
        </Button>
        {photo ? (
          <Button variant="outline" disabled={busy !== null} loading={busy === 'remove'} onClick={() => void run('remove')}>
            {t('profile.photoRemove')}
          </Button>
        ) : null}
      </div>
    </section>
  );
}

/** The preferred language, kept on the server: applied at the next sign-in on any device, and used for e-mails. */
export function PreferredLanguage() {
  const { t, i18n } = useTranslation('users');
  const current = (locales as readonly string[]).includes(i18n.language) ? (i18n.language as Locale) : 'en-IN';
  return (
    <section className={`${card} ${section}`} aria-labelledby="profile-language-title">
      <h2 id="profile-language-title" className={heading}>
        {t('profile.languageTitle')}
      </h2>
      <SelectField
        label={t('profile.languageLabel')}
        hint={t('profile.languageHint')}
        value={current}
        onValueChange={(code) => chooseAndSaveLanguage(code as Locale)}
        options={locales.map((code) => ({ value: code, label: `${languageName(code, code)} (${languageName(code, i18n.language)})` }))}
        testId="preferred-language"
      />
    </section>
  );
}

/** In the app, by e-mail, both or none — per kind. */
export function NotificationPreferences() {
  const { t } = useTranslation(['users', 'notifications']);
  const { value, setValue, error, reload } = useLoad(inboxApi.preferences);
  const errorText = useErrorText(error);
  if (error) return <ErrorState message={errorText ?? undefined} onRetry={reload} />;
  const rows: PreferenceRow[] = value?.preferences ?? [];
  const change = async (row: PreferenceRow, channel: string) => {
    try {
      setValue(await inboxApi.savePreferences([{ kind: row.kind, channel: channel as PreferenceRow['channel'] }]));
      void notify.success(t('users:profile.preferencesSaved'));
    } catch (failure) {
      void notify.error(failure);
    }
  };
  return (
    <section className={`${card} ${section}`} aria-labelledby="profile-preferences-title">
      <h2 id="profile-preferences-title" className={heading}>
        {t('users:profile.preferencesTitle')}
      </h2>
      {!value ? <ListSkeleton columns={2} rows={4} label={t('users:profile.loading')} testId="preferences-loading" /> : null}
      <div className={grid}>
        {rows.map((row) => (
          <SelectField
            key={row.kind}
            label={t(`notifications:center.kindLabel.${row.kind}`)}
            value={row.channel}
            onValueChange={(channel) => void change(row, channel)}
            options={(['inApp', 'email', 'both', 'none'] as const).map((c) => ({ value: c, label: t(`notifications:center.channel.${c}`) }))}
            testId={`preference-${row.kind}`}
          />
        ))}
      </div>
    </section>
  );
}

/** Open sessions: sign out this device, another one, or everywhere else. */
export function ActiveSessions() {
  const { t } = useTranslation('users');
  const format = useFormat();
  const { value, error, reload } = useLoad(profileApi.sessions);
  const [busy, setBusy] = useState<string | null>(null);
  const errorText = useErrorText(error);
  if (error) return <ErrorState message={errorText ?? undefined} onRetry={reload} />;
  const sessions: ProfileSession[] = value?.sessions ?? [];
  const run = async (id: string, action: () => Promise<unknown>) => {
    setBusy(id);
    try {
      await action();
      reload();
    } catch (failure) {
      void notify.error(failure);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className={`${card} ${section}`} aria-labelledby="profile-sessions-title">
      <div className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: '2' })}>
        <h2 id="profile-sessions-title" className={heading}>
          {t('profile.sessionsTitle')}
        </h2>
        <Button
          variant="outline"
          size="sm"
          disabled={sessions.length < 2}
          loading={busy === 'others'}
          onClick={() => void run('others', profileApi.revokeOthers)}
        >
          {t('profile.signOutOthers')}
        </Button>
      </div>
      {!value ? <ListSkeleton columns={2} rows={2} label={t('profile.loading')} testId="sessions-loading" /> : null}
      <ul className={list}>
        {sessions.map((s) => (
          <li key={s.id} className={item} data-testid="session">
            <div className={css({ flex: 1, minWidth: '12rem' })}>
              <p>
                {deviceText(t, s.device)}
                {s.current ? <strong className={css({ ms: '2', color: 'primary.dark' })}>{t('profile.thisDevice')}</strong> : null}
              </p>
              <p className={muted}>
                {t('profile.sessionSince', { since: format.dateTime(s.createdOn), last: format.dateTime(s.lastUsedOn), ip: s.ipAddress ?? '—' })}
              </p>
            </div>
            {s.current ? (
              <Button variant="outline" size="sm" onClick={() => void signOut()}>
                {t('profile.signOutThis')}
              </Button>
            ) : (
              <Button
                variant="ghost"
                size="sm"
                loading={busy === s.id}
                onClick={() => void run(s.id, () => profileApi.revoke(s.id))}
                aria-label={t('profile.signOutNamed', { device: deviceText(t, s.device) })}
              >
                {t('profile.signOut')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The latest sign-ins, failures with their reason, on readable devices. */
export function RecentSignIns() {
  const { t } = useTranslation('users');
  const format = useFormat();
  const { value, error, reload } = useLoad(() => profileApi.signIns(10));
  const errorText = useErrorText(error);
  if (error) return <ErrorState message={errorText ?? undefined} onRetry={reload} />;
  const entries: SignInEntry[] = value?.data ?? [];
  return (
    <section className={`${card} ${section}`} aria-labelledby="profile-signins-title">
      <h2 id="profile-signins-title" className={heading}>
        {t('profile.signInsTitle')}
      </h2>
      {!value ? <ListSkeleton columns={3} rows={3} label={t('profile.loading')} testId="signins-loading" /> : null}
      <ul className={list}>
        {entries.map((e) => (
          <li key={e.id} className={item} data-testid="sign-in">
            <span className={css({ minWidth: '10rem' })}>{format.dateTime(e.time)}</span>
            <span className={css({ fontWeight: 'semibold', color: e.outcome === 'failure' ? 'error.main' : 'fg.default' })}>
              {t(`profile.event.${e.event}`)}
              {e.outcome === 'failure' && e.reason ? ` — ${t(`profile.reason.${e.reason}`, { defaultValue: e.reason })}` : ''}
            </span>
            <span className={muted}>
              {deviceText(t, e.device)} · {e.ipAddress ?? '—'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
