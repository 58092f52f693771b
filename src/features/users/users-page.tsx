import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGate } from './components/permission-gate.tsx';
import { useNavigate } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { useHasPermission } from '#src/app/use-permission.ts';
import { Avatar } from '#src/components/ui/avatar.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { RowMenu, type MenuAction } from '#src/components/ui/menu.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { DeferredSelectField } from '#src/components/ui/deferred-select.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { InfoPopover } from '#src/components/ui/popover.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useRoleText } from './role-text.ts';
import { appConfig } from '#src/lib/config.ts';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { Icon } from '#src/components/ui/icons.tsx';
import { Tooltip } from '#src/components/ui/tooltip.tsx';
import { usersApi, type RoleSummary, type UserDetail } from './api/users-api.ts';
import { DownloadButton } from './components/export-button.tsx';
import { EmailBadge, StatusBadge } from './components/user-badges.tsx';
import { loadChunk } from '#src/lib/lazy-chunk.ts';
import { storeRecord } from '#src/app/stores/record-slices.ts';

// The dialogs (Ark Dialog, DatePicker, Checkbox, the role Select) load when one is first opened,
// not with the list (docs/decisions/0162).
const dialogs = () => loadChunk(() => import('./components/user-dialogs.tsx'));
const UserDialog = lazy(async () => ({ default: (await dialogs()).UserDialog }));
const RolesDialog = lazy(async () => ({ default: (await dialogs()).RolesDialog }));
const DirectoryImportDialog = lazy(async () => ({ default: (await dialogs()).DirectoryImportDialog }));

const filterRow = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '2fr 1fr 1fr 1fr' }, gap: '3', alignItems: 'end', p: '4' });

type Open = { kind: 'create' } | { kind: 'edit'; user: UserDetail } | { kind: 'roles'; user: UserDetail } | { kind: 'directory' } | null;

/** User administration (spec §7 "Users and roles"): search, filter, sort, page, and act on each user. */
function UsersPage() {
  const { t } = useTranslation('users');
  const roleText = useRoleText();
  const navigate = useNavigate();
  const { confirm, element: confirmation } = useConfirm();
  const search = usePagedSearch<UserDetail>(
    (query) => usersApi.search(query),
    { orderBy: ['createdOn desc'] },
    { isActive: 'string', emailConfirmed: 'string', roleId: 'string' },
  );
  const errorText = useErrorText(search.error);
  const [roles, setRoles] = useState<RoleSummary[]>([]);
  const [open, setOpen] = useState<Open>(null);
  const can = {
    create: useHasPermission(P.Users.Create),
    update: useHasPermission(P.Users.Update),
    export: useHasPermission(P.Users.Export),
    import: useHasPermission(P.Users.Import),
    roles: useHasPermission(P.UserRoles.Update),
    rolesView: useHasPermission(P.Roles.View),
    directory: useHasPermission(P.DirectoryUsers.Search),
    history: useHasPermission(P.LoginHistory.View),
  };

  useEffect(() => {
    if (!can.rolesView) return;
    usersApi.allRoles().then(
      (page) => setRoles(page.data),
      () => setRoles([]),
    );
  }, [can.rolesView]);

  const reload = () => search.send({ type: 'search.reload' });
  const filters = search.query.filters as { isActive?: string; emailConfirmed?: string; roleId?: string };
  const filtered = Boolean(search.query.keyword || filters.isActive || filters.emailConfirmed || filters.roleId);

  const act = async (work: () => Promise<{ message?: string } | unknown>, done: string) => {
    try {
      await work();
      void notify.success(done);
      reload();
    } catch (error) {
      void notify.error(error);
    }
  };

  const actionsOf = (user: UserDetail): MenuAction[] => {
    const actions: MenuAction[] = [];
    if (can.update)
      actions.push({
        id: 'edit',
        label: t('action.edit'),
        onSelect: () => {
          storeRecord('user', user);
          setOpen({ kind: 'edit', user });
        },
      });
    if (can.roles) actions.push({ id: 'roles', label: t('action.roles'), onSelect: () => setOpen({ kind: 'roles', user }) });
    if (can.update) {
      actions.push({
        id: 'status',
        label: user.isActive ? t('action.deactivate') : t('action.activate'),
        tone: user.isActive ? 'danger' : undefined,
        onSelect: () =>
          void (async () => {
            // Deactivating signs the user out everywhere: ask first.
            if (
              user.isActive &&
              !(await confirm({
                title: t('confirmDeactivate.title'),
                message: t('confirmDeactivate.message', { name: user.userName }),
                confirmLabel: t('action.deactivate'),
              }))
            )
              return;
            await act(
              () => usersApi.toggleStatus(user.id, !user.isActive),
              user.isActive ? t('done.deactivated', { name: user.userName }) : t('done.activated', { name: user.userName }),
            );
          })(),
      });
      // Spec §7 updatefirsttimelogin (issue 23): the admin's "require a new password at next sign-in".
      actions.push({
        id: 'firstLogin',
        label: user.isFirstTimeLogin ? t('action.dropNewPassword') : t('action.requireNewPassword'),
        onSelect: () =>
          void act(
            () => usersApi.setFirstTimeLogin(user.id, !user.isFirstTimeLogin),
            user.isFirstTimeLogin ? t('done.newPasswordDropped', { name: user.userName }) : t('done.newPasswordRequired', { name: user.userName }),
          ),
      });
      actions.push({
        id: 'email',
        label: user.emailConfirmed ? t('action.unconfirmEmail') : t('action.confirmEmail'),
        onSelect: () =>
          void act(
            () => usersApi.toggleEmail(user.id, !user.emailConfirmed),
            user.emailConfirmed ? t('done.emailUnconfirmed', { name: user.userName }) : t('done.emailConfirmed', { name: user.userName }),
          ),
      });
    }
    if ((can.update || can.create) && user.isActive && (user.isFirstTimeLogin || !user.emailConfirmed) && user.loginType === 'local') {
      actions.push({
        id: 'resend',
        label: t('action.resendInvitation'),
        onSelect: () =>
          void usersApi.resendInvitation(user.id).then(
            ({ results }) => {
              const outcome = results[0]?.outcome ?? 'nothingToSend';
              void notify.success(t(`resend.${outcome}`, { email: user.email }));
            },
            (error) => void notify.error(error),
          ),
      });
    }
    if (can.history) actions.push({ id: 'history', label: t('action.loginHistory'), onSelect: () => navigate(`/users/${user.id}/login-history`) });
    return actions;
  };

  const columns: Column<UserDetail>[] = [
    {
      key: 'name',
      header: t('column.name'),
      sortKey: 'firstName',
      cell: (u) => (
        <span className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
          <Avatar name={`${u.firstName} ${u.lastName}`.trim() || u.userName} />
          <span>
            <span className={css({ fontWeight: 'semibold', display: 'block' })}>{`${u.firstName} ${u.lastName}`.trim() || u.userName}</span>
            <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{u.userName}</span>
          </span>
        </span>
      ),
    },
    { key: 'email', header: t('column.email'), sortKey: 'email', cell: (u) => u.email },
    {
      key: 'roles',
      header: t('column.roles'),
      hideOnSmall: true,
      // Two roles fit the row; the rest are one button away (a popover with the whole list).
      cell: (u) =>
        u.roles.length <= 2 ? (
          u.roles.map((r) => roleText.roleName(r.roleName)).join(', ')
        ) : (
          <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
            {u.roles
              .slice(0, 2)
              .map((r) => roleText.roleName(r.roleName))
              .join(', ')}
            <InfoPopover
              trigger={t('roles.more', { n: u.roles.length - 2 })}
              triggerLabel={t('roles.allOf', { n: u.roles.length, name: u.userName })}
              title={t('roles.dialogTitle', { name: u.userName })}
              closeLabel={t('close', { ns: 'ui' })}
              testId={`roles-${u.userName}`}
            >
              <ul className={css({ listStyle: 'disc', ps: '4' })}>
                {u.roles.map((r) => (
                  <li key={r.roleId}>{roleText.roleName(r.roleName)}</li>
                ))}
              </ul>
            </InfoPopover>
          </span>
        ),
    },
    { key: 'status', header: t('column.status'), sortKey: 'isActive', cell: (u) => <StatusBadge active={u.isActive} /> },
    {
      key: 'emailConfirmed',
      header: t('column.emailConfirmed'),
      sortKey: 'emailConfirmed',
      cell: (u) => <EmailBadge confirmed={u.emailConfirmed} />,
      hideOnSmall: true,
    },
    {
      key: 'actions',
      header: <span className={css({ srOnly: true })}>{t('column.actions')}</span>,
      align: 'end',
      cell: (u) => <RowMenu label={t('action.menu', { name: u.userName })} actions={actionsOf(u)} testId={`user-actions-${u.userName}`} />,
    },
  ];

  const yesNo = (yes: string, no: string) => [
    { value: 'true', label: yes },
    { value: 'false', label: no },
  ];

  const activeFilters = [filters.isActive, filters.roleId, filters.emailConfirmed].filter(Boolean).length;
  const filterFields = (
    <>
      <DeferredSelectField
        label={t('filter.status')}
        value={filters.isActive ?? ''}
        placeholder={t('filter.any')}
        options={yesNo(t('status.active'), t('status.inactive'))}
        onValueChange={(value) => search.send({ type: 'search.filter', filters: { isActive: value } })}
      />
      <DeferredSelectField
        label={t('filter.role')}
        value={filters.roleId ?? ''}
        placeholder={t('filter.any')}
        options={roles.map((r) => ({ value: r.id, label: roleText.roleName(r.name) }))}
        onValueChange={(value) => search.send({ type: 'search.filter', filters: { roleId: value } })}
      />
      <DeferredSelectField
        label={t('filter.emailConfirmed')}
        value={filters.emailConfirmed ?? ''}
        placeholder={t('filter.any')}
        options={yesNo(t('email.confirmed'), t('email.unconfirmed'))}
        onValueChange={(value) => search.send({ type: 'search.filter', filters: { emailConfirmed: value } })}
      />
    </>
  );

  return (
    <section aria-labelledby="users-title">
      <PageHeader
        id="users-title"
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            {can.import ? (
              <Link to="/users/bulk-upload" className={css({ alignSelf: 'center', color: 'primary.dark', textDecoration: 'underline', fontSize: 'sm' })}>
                {t('bulk.link')}
              </Link>
            ) : null}
            {can.export ? (
              <DownloadButton
                label={t('list.export')}
                fallbackName="users.xlsx"
                fetchFile={(onProgress) => usersApi.exportUsers(search.query, onProgress)}
                testId="export-users"
              />
            ) : null}
            {can.directory && can.create && appConfig.directoryConfigured ? (
              <Button variant="outline" onClick={() => setOpen({ kind: 'directory' })}>
                {t('directory.open')}
              </Button>
            ) : null}
            {can.directory && can.create && !appConfig.directoryConfigured ? (
              // No directory on this server: no import button, only why (issue 23).
              <Tooltip content={t('directory.notConfigured')}>
                <Button variant="ghost" size="icon" aria-label={t('directory.unavailable')} data-testid="directory-unavailable">
                  <Icon name="info" />
                </Button>
              </Tooltip>
            ) : null}
            {can.create ? <Button onClick={() => setOpen({ kind: 'create' })}>{t('list.create')}</Button> : null}
          </div>
        }
      />
      <div className={card}>
        <div className={filterRow}>
          <SearchInput
            label={t('list.searchLabel')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
          />
          <FilterFold active={activeFilters}>{filterFields}</FilterFold>
        </div>
        <PagedTable
          search={search}
          errorText={errorText}
          empty={<EmptyState title={filtered ? t('list.noMatch') : t('list.empty')}>{filtered ? t('list.noMatchHint') : null}</EmptyState>}
          caption={t('list.caption')}
          columns={columns}
          rowKey={(u) => u.id}
          testId="users-table"
        />
      </div>
      <Suspense fallback={null}>
        {open?.kind === 'create' || open?.kind === 'edit' ? (
          <UserDialog
            user={open.kind === 'edit' ? open.user : null}
            roles={roles}
            onClose={() => setOpen(null)}
            onSaved={() => {
              setOpen(null);
              reload();
            }}
          />
        ) : null}
        {open?.kind === 'roles' ? (
          <RolesDialog
            user={open.user}
            onClose={() => setOpen(null)}
            onSaved={() => {
              setOpen(null);
              reload();
            }}
          />
        ) : null}
        {open?.kind === 'directory' ? (
          <DirectoryImportDialog
            onClose={() => setOpen(null)}
            onImported={() => {
              setOpen(null);
              reload();
            }}
          />
        ) : null}
      </Suspense>
      {confirmation}
    </section>
  );
}

/** The screen behind its permission. */
export default function GatedUsersPage() {
  return (
    <PermissionGate permission={P.Users.Search}>
      <UsersPage />
    </PermissionGate>
  );
}
