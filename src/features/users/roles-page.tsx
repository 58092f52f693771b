import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { P } from '#machines/permissions.ts';
import { PermissionGate } from './components/permission-gate.tsx';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { useHasPermission } from '#src/app/use-permission.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { RowMenu } from '#src/components/ui/menu.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usersApi, type RoleSummary } from './api/users-api.ts';
import { dropRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { RoleDialog } from './components/role-dialog.tsx';
import { useRoleText } from './role-text.ts';

/**
 * Role search (`/roles/search`): each role with its description, permissions and how many users
 * hold it; with `Roles.Manage`, custom roles are created, edited and retired here (issue 23).
 * Seeded roles are read-only. Names, descriptions and permissions of seeded roles are shown in
 * the user's language.
 */
function RolesPage() {
  const { t } = useTranslation('users');
  const text = useRoleText();
  const canManage = useHasPermission(P.Roles.Manage);
  const search = usePagedSearch<RoleSummary>((query) => usersApi.searchRoles(query), { orderBy: ['name asc'] });
  const errorText = useErrorText(search.error);
  const { confirm, element: confirmation } = useConfirm();
  const [editing, setEditing] = useState<RoleSummary | 'new' | null>(null);
  const reload = () => search.send({ type: 'search.reload' });

  const retire = async (role: RoleSummary) => {
    const agreed = await confirm({
      title: t('roleAdmin.retireTitle', { name: role.name }),
      message: t('roleAdmin.retireMessage', { name: role.name, count: role.userCount }),
      confirmLabel: t('roleAdmin.retireConfirm'),
    });
    if (!agreed) return;
    try {
      const result = await usersApi.retireRole(role.id);
      dropRecord('role', role.id);
      void notify.success(t('roleAdmin.retired', { name: role.name, count: result.usersAffected }));
    } catch (error) {
      // 409 (a seeded role), 403 (a role above the caller), 404: the server's words in the red toast.
      void notify.error(error);
    }
    reload();
  };

  const columns: Column<RoleSummary>[] = [
    {
      key: 'name',
      header: t('rolesPage.name'),
      sortKey: 'name',
      cell: (r) => (
        <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
          <span className={css({ fontWeight: 'semibold' })}>{text.roleName(r.name)}</span>
          {r.isSystem ? (
            <span title={t('roleAdmin.seededHint')}>
              <Badge tone="neutral">{t('roleAdmin.seeded')}</Badge>
            </span>
          ) : (
            <Badge tone="primary">{t('roleAdmin.custom')}</Badge>
          )}
        </span>
      ),
    },
    { key: 'description', header: t('rolesPage.description'), cell: (r) => text.roleDescription(r.name, r.description), hideOnSmall: true },
    {
      key: 'permissions',
      header: t('rolesPage.permissions'),
      hideOnSmall: true,
      cell: (r) => (
        <details>
          <summary className={css({ cursor: 'pointer' })}>{t('rolesPage.permissionCount', { count: r.permissions.length })}</summary>
          <ul className={css({ fontSize: 'xs', color: 'fg.muted', mt: '1' })}>
            {r.permissions.map((p) => (
              <li key={p} title={p}>
                {text.permissionName(p)}
              </li>
            ))}
          </ul>
        </details>
      ),
    },
    { key: 'userCount', header: t('rolesPage.userCount'), sortKey: 'userCount', align: 'end', cell: (r) => r.userCount },
  ];
  if (canManage) {
    columns.push({
      key: 'actions',
      header: t('column.actions'),
      align: 'end',
      cell: (r) =>
        r.isSystem ? null : (
          <RowMenu
            label={t('roleAdmin.actions', { name: r.name })}
            testId={`role-actions-${r.name}`}
            actions={[
              {
                id: 'edit',
                label: t('roleAdmin.edit'),
                onSelect: () => {
                  storeRecord('role', r);
                  setEditing(r);
                },
              },
              { id: 'retire', label: t('roleAdmin.retire'), tone: 'danger', onSelect: () => void retire(r) },
            ]}
          />
        ),
    });
  }

  return (
    <section aria-labelledby="roles-title">
      <PageHeader
        id="roles-title"
        title={t('rolesPage.title')}
        description={t('rolesPage.intro')}
        actions={
          canManage ? (
            <Button onClick={() => setEditing('new')} data-testid="new-role">
              {t('roleAdmin.create')}
            </Button>
          ) : null
        }
      />
      <div className={card}>
        <div className={css({ p: '4' })}>
          <SearchInput
            label={t('rolesPage.searchLabel')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
          />
        </div>
        <PagedTable
          search={search}
          errorText={errorText}
          empty={<EmptyState title={t('rolesPage.none')} />}
          caption={t('rolesPage.title')}
          columns={columns}
          rowKey={(r) => r.id}
          testId="roles-table"
        />
      </div>
      {editing ? (
        <RoleDialog
          role={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      ) : null}
      {confirmation}
    </section>
  );
}

/** The screen behind its permission. */
export default function GatedRolesPage() {
  return (
    <PermissionGate permission={P.Roles.View}>
      <RolesPage />
    </PermissionGate>
  );
}
