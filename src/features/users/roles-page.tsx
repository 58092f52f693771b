import { useTranslation } from 'react-i18next';
import { P } from '#machines/permissions.ts';
import { PermissionGate } from './components/permission-gate.tsx';
import { css } from '#styled-system/css';
import type { Column } from '#src/components/ui/data-table.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usersApi, type RoleSummary } from './api/users-api.ts';

/** Role search (`/roles/search`): each role with its description, permissions and how many users hold it. */
function RolesPage() {
  const { t } = useTranslation('users');
  const search = usePagedSearch<RoleSummary>((query) => usersApi.searchRoles(query), { orderBy: ['name asc'] });
  const errorText = useErrorText(search.error);

  const columns: Column<RoleSummary>[] = [
    { key: 'name', header: t('rolesPage.name'), sortKey: 'name', cell: (r) => <span className={css({ fontWeight: 'semibold' })}>{r.name}</span> },
    { key: 'description', header: t('rolesPage.description'), cell: (r) => r.description, hideOnSmall: true },
    {
      key: 'permissions',
      header: t('rolesPage.permissions'),
      hideOnSmall: true,
      cell: (r) => (
        <details>
          <summary className={css({ cursor: 'pointer' })}>{t('rolesPage.permissionCount', { count: r.permissions.length })}</summary>
          <ul className={css({ fontSize: 'xs', color: 'fg.muted', mt: '1' })}>
            {r.permissions.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </details>
      ),
    },
    { key: 'userCount', header: t('rolesPage.userCount'), sortKey: 'userCount', align: 'end', cell: (r) => r.userCount },
  ];

  return (
    <section aria-labelledby="roles-title">
      <PageHeader id="roles-title" title={t('rolesPage.title')} description={t('rolesPage.intro')} />
      <div className={card}>
        <div className={css({ p: '4' })}>
          <SearchInput label={t('rolesPage.searchLabel')} value={search.query.keyword} onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })} />
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
