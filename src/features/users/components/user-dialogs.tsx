import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { DateField, today } from '#src/components/ui/date-field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState, LoadingState } from '#src/components/ui/states.tsx';
import { useEmailCheck } from '#src/lib/use-email-check.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useRoleText } from '../role-text.ts';
import { usersApi, type DirectoryUser, type RoleSummary, type UserDetail, type UserRoleEntry } from '../api/users-api.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';

type FieldErrors = Record<string, string[]> | null;

const alertText = css({ color: 'error.main', fontSize: 'sm' });
const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' });

/** Field errors of a 400 problem-details answer, or null when the failure is something else. */
function fieldErrorsOf(error: unknown): FieldErrors {
  const problem = error as { errors?: Record<string, string[]>; response?: { data?: { errors?: Record<string, string[]> } } };
  return problem?.errors ?? problem?.response?.data?.errors ?? null;
}

function Failure({ error }: { error: unknown }) {
  const text = useErrorText(error);
  return text ? (
    <p role="alert" className={alertText} data-testid="dialog-error">
      {text}
    </p>
  ) : null;
}

interface Draft {
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  phoneNumber: string;
  dateOfBirth: string;
  roleId: string;
  access: 'invite' | 'password';
  password: string;
  confirmPassword: string;
}

const draftOf = (user: UserDetail | null): Draft => ({
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
  email: user?.email ?? '',
  userName: user?.userName ?? '',
  phoneNumber: user?.phoneNumber ?? '',
  dateOfBirth: user?.dateOfBirth ?? '',
  roleId: '',
  access: 'invite',
  password: '',
  confirmPassword: '',
});

/** Create a user (with an invitation or a password) or edit one's profile fields (docs/decisions/0040). */
export function UserDialog({
  user,
  roles,
  onClose,
  onSaved,
}: {
  user: UserDetail | null;
  roles: RoleSummary[];
  onClose: () => void;
  onSaved: (user: UserDetail) => void;
}) {
  const { t } = useTranslation('users');
  const roleText = useRoleText();
  const [draft, setDraft] = useState<Draft>(() => draftOf(user));
  const [errors, setErrors] = useState<FieldErrors>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: event.target.value }));
  // The server's word on the address once the field is left (spec §7 validateemail): with the
  // admin's token, so it also says whether another user has it (docs/decisions/0282).
  const emailCheck = useEmailCheck(draft.email, { userId: user?.id });

  const check = (): FieldErrors => {
    const found: Record<string, string[]> = {};
    for (const name of ['firstName', 'lastName', 'email', 'userName'] as const) if (!draft[name].trim()) found[name] = [t('form.required')];
    if (draft.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(draft.email.trim())) found.email = [t('form.badEmail')];
    if (!user && draft.access === 'password') {
      if (!draft.password) found.password = [t('form.required')];
      else if (draft.password !== draft.confirmPassword) found.confirmPassword = [t('form.passwordsDiffer')];
    }
    return Object.keys(found).length ? found : null;
  };

  const save = async () => {
    const found = check();
    setErrors(found);
    if (found) return;
    setBusy(true);
    setFailure(null);
    const common = {
      firstName: draft.firstName.trim(),
      lastName: draft.lastName.trim(),
      email: draft.email.trim(),
      userName: draft.userName.trim(),
      phoneNumber: draft.phoneNumber.trim() || null,
      dateOfBirth: draft.dateOfBirth || null,
    };
    try {
      const saved = user
        ? await usersApi.edit({ id: user.id, ...common })
        : await usersApi.create({
            ...common,
            roleId: draft.roleId || null,
            ...(draft.access === 'invite' ? { isSendInvitation: true } : { password: draft.password, confirmPassword: draft.confirmPassword }),
          });
      void notify.success(
        user
          ? t('form.saved', { name: common.userName })
          : draft.access === 'invite'
            ? t('form.invited', { email: common.email })
            : t('form.created', { name: common.userName }),
      );
      if (user) storeRecord('user', saved);
      onSaved(saved);
    } catch (error) {
      // Spec §4: the selected user is removed when their update throws.
      if (user) failRecord('user');
      const fields = fieldErrorsOf(error);
      if (fields) setErrors(fields);
      setFailure(fields ? null : error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={user ? t('form.editTitle', { name: user.userName }) : t('form.createTitle')}
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      size="lg"
      testId="user-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {user ? t('common.save') : t('form.create')}
          </Button>
        </>
      }
    >
      <div className={grid}>
        <TextField
          label={t('field.firstName')}
          value={draft.firstName}
          onChange={set('firstName')}
          required
          maxLength={100}
          autoFocus
          error={fieldError(errors, 'firstName')}
        />
        <TextField
          label={t('field.lastName')}
          value={draft.lastName}
          onChange={set('lastName')}
          required
          maxLength={100}
          error={fieldError(errors, 'lastName')}
        />
        <TextField
          label={t('field.email')}
          type="email"
          value={draft.email}
          onChange={set('email')}
          required
          maxLength={256}
          error={fieldError(errors, 'email') ?? emailCheck.error}
          hint={emailCheck.hint}
          onBlur={(event) => void emailCheck.check(event.target.value)}
        />
        <TextField
          label={t('field.userName')}
          value={draft.userName}
          onChange={set('userName')}
          required
          maxLength={100}
          error={fieldError(errors, 'userName')}
        />
        <TextField
          label={t('field.phoneNumber')}
          type="tel"
          value={draft.phoneNumber}
          onChange={set('phoneNumber')}
          maxLength={32}
          error={fieldError(errors, 'phoneNumber')}
        />
        <DateField
          label={t('field.dateOfBirth')}
          value={draft.dateOfBirth}
          onChange={(value) => set('dateOfBirth')({ target: { value } })}
          error={fieldError(errors, 'dateOfBirth')}
          max={today()}
        />
      </div>
      {user ? null : (
        <>
          <SelectField
            label={t('field.role')}
            value={draft.roleId}
            onValueChange={(value) => set('roleId')({ target: { value } })}
            placeholder={t('form.defaultRole')}
            options={roles.map((role) => ({ value: role.id, label: roleText.roleName(role.name) }))}
            error={fieldError(errors, 'roleId')}
          />
          <ChoiceGroup
            title={t('form.accessLegend')}
            name="access"
            value={draft.access}
            onChange={(access) => setDraft((d) => ({ ...d, access }))}
            options={[
              { value: 'invite', label: t('form.sendInvitation') },
              { value: 'password', label: t('form.setPassword') },
            ]}
          />
          {draft.access === 'password' ? (
            <div className={grid}>
              <TextField
                label={t('field.password')}
                type="password"
                autoComplete="new-password"
                value={draft.password}
                onChange={set('password')}
                required
                error={fieldError(errors, 'password')}
              />
              <TextField
                label={t('field.confirmPassword')}
                type="password"
                autoComplete="new-password"
                value={draft.confirmPassword}
                onChange={set('confirmPassword')}
                required
                error={fieldError(errors, 'confirmPassword')}
              />
            </div>
          ) : null}
        </>
      )}
      <Failure error={failure} />
    </Dialog>
  );
}

/** Turn a user's roles on and off (only the changed ones are sent). */
export function RolesDialog({ user, onClose, onSaved }: { user: UserDetail; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('users');
  const roleText = useRoleText();
  const [roles, setRoles] = useState<UserRoleEntry[] | null>(null);
  const [enabled, setEnabled] = useState<Set<string>>(new Set());
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // What the user holds now, as the server says it (spec §7 activeroles): the line above the
  // choices, and what the changes are measured against. null while loading; failed: not shown.
  const [active, setActive] = useState<Array<{ roleId: string; roleName: string }> | null | 'failed'>(null);

  useEffect(() => {
    usersApi.activeRoles(user.id).then(setActive, () => setActive('failed'));
  }, [user.id]);

  useEffect(() => {
    usersApi.roles(user.id).then(
      (list) => {
        setRoles(list);
        setEnabled(new Set(list.filter((r) => r.enabled).map((r) => r.roleId)));
      },
      (error) => {
        setRoles([]);
        setFailure(error);
      },
    );
  }, [user.id]);

  const save = async () => {
    if (!roles) return;
    const changed = roles.filter((r) => r.enabled !== enabled.has(r.roleId)).map((r) => ({ roleId: r.roleId, enabled: enabled.has(r.roleId) }));
    setBusy(true);
    setFailure(null);
    try {
      if (changed.length) await usersApi.setRoles(user.id, changed);
      void notify.success(t('roles.saved', { name: user.userName }));
      onSaved();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const activeIds = Array.isArray(active) ? new Set(active.map((r) => r.roleId)) : null;
  const adds = roles && activeIds ? roles.filter((r) => enabled.has(r.roleId) && !activeIds.has(r.roleId)) : [];
  const removes = roles && activeIds ? roles.filter((r) => !enabled.has(r.roleId) && activeIds.has(r.roleId)) : [];
  const names = (list: ReadonlyArray<{ roleName: string }>) => list.map((r) => roleText.roleName(r.roleName)).join(', ');

  return (
    <Dialog
      title={t('roles.dialogTitle', { name: user.userName })}
      description={t('roles.dialogHint')}
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      testId="roles-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={roles === null}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      {Array.isArray(active) ? (
        <p className={css({ fontSize: 'sm', mb: '2' })} data-testid="active-roles">
          {active.length ? t('roles.holdsNow', { roles: names(active) }) : t('roles.holdsNone')}
        </p>
      ) : null}
      {roles === null ? (
        <LoadingState />
      ) : (
        <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <legend className={css({ srOnly: true })}>{t('roles.dialogTitle', { name: user.userName })}</legend>
          {roles.map((role) => (
            <Checkbox
              key={role.roleId}
              checked={enabled.has(role.roleId)}
              onChange={(checked) => {
                const next = new Set(enabled);
                if (checked) next.add(role.roleId);
                else next.delete(role.roleId);
                setEnabled(next);
              }}
            >
              <span className={css({ fontWeight: 'semibold' })}>{roleText.roleName(role.roleName)}</span>
              {role.description ? (
                <span className={css({ display: 'block', color: 'fg.muted' })}>{roleText.roleDescription(role.roleName, role.description)}</span>
              ) : null}
            </Checkbox>
          ))}
        </fieldset>
      )}
      {adds.length || removes.length ? (
        <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted', mt: '2' })} data-testid="role-changes">
          {[adds.length ? t('roles.adds', { roles: names(adds) }) : null, removes.length ? t('roles.removes', { roles: names(removes) }) : null]
            .filter(Boolean)
            .join(' ')}
        </p>
      ) : null}
      <Failure error={failure} />
    </Dialog>
  );
}

/** Search the enterprise directory and import an entry as a directory user (docs/decisions/0044). */
export function DirectoryImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const { t } = useTranslation('users');
  const [keyword, setKeyword] = useState('');
  const [entries, setEntries] = useState<DirectoryUser[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [importing, setImporting] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  /** What the list shows: a keyword search, or the look-up of one exact user name (spec §7 getusersfromad). */
  const [mode, setMode] = useState<{ kind: 'search' } | { kind: 'lookup'; userName: string }>({ kind: 'search' });

  const search = async () => {
    setSearching(true);
    setFailure(null);
    setMode({ kind: 'search' });
    try {
      setEntries((await usersApi.directorySearch(keyword)).data);
    } catch (error) {
      setEntries(null);
      setFailure(error);
    } finally {
      setSearching(false);
    }
  };

  const lookup = async () => {
    const userName = keyword.trim();
    if (!userName) return;
    setSearching(true);
    setFailure(null);
    setMode({ kind: 'lookup', userName });
    try {
      setEntries([await usersApi.directoryLookup(userName)]);
    } catch (error) {
      // No such user name is an answer, not a failure.
      if ((error as { statusCode?: number } | null)?.statusCode === 404) setEntries([]);
      else {
        setEntries(null);
        setFailure(error);
      }
    } finally {
      setSearching(false);
    }
  };

  const importEntry = async (entry: DirectoryUser) => {
    setImporting(entry.userName);
    setFailure(null);
    try {
      await usersApi.create({ userName: entry.userName, loginType: 'directory' });
      void notify.success(t('directory.imported', { name: entry.userName }));
      onImported();
    } catch (error) {
      setFailure(error);
    } finally {
      setImporting(null);
    }
  };

  return (
    <Dialog
      title={t('directory.title')}
      description={t('directory.hint')}
      onClose={onClose}
      onSubmit={() => void search()}
      busy={importing !== null}
      size="lg"
      testId="directory-dialog"
      footer={
        <Button variant="ghost" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}>
        <SearchInput label={t('directory.searchLabel')} value={keyword} onChange={(e) => setKeyword(e.target.value)} autoFocus className={css({ flex: '1' })} />
        <Button type="submit" loading={searching && mode.kind === 'search'}>
          {t('directory.search')}
        </Button>
        <Button
          variant="outline"
          onClick={() => void lookup()}
          disabled={!keyword.trim() || searching}
          loading={searching && mode.kind === 'lookup'}
          data-testid="directory-lookup"
        >
          {t('directory.lookup')}
        </Button>
      </div>
      <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{t('directory.lookupHint')}</p>
      {(failure as { reason?: string } | null)?.reason === 'directoryNotConfigured' ? (
        <p role="alert" className={alertText} data-testid="directory-not-configured">
          {t('directory.notConfigured')}
        </p>
      ) : (
        <Failure error={failure} />
      )}
      {searching && !entries ? <LoadingState /> : null}
      {entries && entries.length === 0 ? (
        <EmptyState title={mode.kind === 'lookup' ? t('directory.lookupNone', { name: mode.userName }) : t('directory.none')} />
      ) : null}
      {entries && entries.length > 0 ? (
        <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2' })} data-testid="directory-results">
          {entries.map((entry) => (
            <li key={entry.userName} className={css({ display: 'flex', alignItems: 'center', gap: '3', fontSize: 'sm' })}>
              <span className={css({ flex: '1' })}>
                <span className={css({ fontWeight: 'semibold' })}>{entry.displayName || entry.userName}</span>{' '}
                <span className={css({ color: 'fg.muted' })}>{entry.email ?? entry.userName}</span>
              </span>
              {entry.alreadyImported ? (
                <span className={css({ color: 'fg.muted' })}>{t('directory.alreadyImported')}</span>
              ) : (
                <Button
                  size="sm"
                  variant="outline"
                  loading={importing === entry.userName}
                  onClick={() => void importEntry(entry)}
                  aria-label={t('directory.importNamed', { name: entry.userName })}
                >
                  {t('directory.import')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </Dialog>
  );
}
