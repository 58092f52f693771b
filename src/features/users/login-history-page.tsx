import { useTranslation } from 'react-i18next';
import { P } from '#machines/permissions.ts';
import { PermissionGate } from './components/permission-gate.tsx';
import { useParams } from 'react-router-dom';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usersApi, type LoginHistoryRow, type LoginHistoryScope } from './api/users-api.ts';

const events = ['login', 'loginFailed', 'logout', 'sessionRevoked'] as const;

/** The login history table of one scope: your own, one user's (admins), or everyone's in scope (admins). */
export function LoginHistory({ scope }: { scope: LoginHistoryScope }) {
  const { t } = useTranslation('users');
  const format = useFormat();
  const search = usePagedSearch<LoginHistoryRow>((query) => usersApi.loginHistory(scope, query), { orderBy: ['time desc'] }, { event: 'string' });
  const errorText = useErrorText(search.error);
  const event = (search.query.filters.event as string | undefined) ?? '';

  const columns: Column<LoginHistoryRow>[] = [
    {
      key: 'time',
      header: t('history.time'),
      sortKey: 'time',
      cell: (r) => (
        <time dir="auto" dateTime={r.time}>
          {format.dateTime(r.time)}
        </time>
      ),
    },
    ...(scope.kind === 'own' ? [] : ([{ key: 'email', header: t('history.user'), sortKey: 'email', cell: (r) => r.email }] as Column<LoginHistoryRow>[])),
    {
      key: 'event',
      header: t('history.event'),
      sortKey: 'event',
      cell: (r) => ((events as readonly string[]).includes(r.event) ? t(`history.events.${r.event}`) : r.event),
    },
    {
      key: 'outcome',
      header: t('history.outcome'),
      cell: (r) => <Badge tone={r.outcome === 'failure' ? 'error' : 'success'}>{r.outcome === 'failure' ? t('history.failure') : t('history.success')}</Badge>,
    },
    { key: 'ip', header: t('history.ipAddress'), cell: (r) => r.ipAddress ?? '—', hideOnSmall: true },
    {
      key: 'agent',
      header: t('history.userAgent'),
      hideOnSmall: true,
      cell: (r) => (
        <span
          title={r.userAgent ?? undefined}
          className={css({ display: 'inline-block', maxWidth: '20rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}
        >
          {r.userAgent ?? '—'}
        </span>
      ),
    },
  ];

  return (
    <div className={card}>
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '2fr 1fr' }, gap: '3', alignItems: 'end', p: '4' })}>
        <SearchInput
          label={t('history.searchLabel')}
          value={search.query.keyword}
          onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
        />
        <FilterFold active={event ? 1 : 0}>
          <SelectField
            label={t('history.event')}
            value={event}
            placeholder={t('filter.any')}
            options={events.map((value) => ({ value, label: t(`history.events.${value}`) }))}
            onValueChange={(value) => search.send({ type: 'search.filter', filters: { event: value } })}
          />
        </FilterFold>
      </div>
      <PagedTable
        search={search}
        errorText={errorText}
        empty={<EmptyState title={t('history.none')} />}
        caption={t('history.caption')}
        columns={columns}
        rowKey={(r) => r.id}
        testId="login-history-table"
      />
    </div>
  );
}

/** /account/login-history: the signed-in user's own sign-ins. */
export function OwnLoginHistoryPage() {
  const { t } = useTranslation('users');
  return (
    <section aria-labelledby="own-history-title">
      <PageHeader id="own-history-title" title={t('history.ownTitle')} description={t('history.ownIntro')} />
      <LoginHistory scope={{ kind: 'own' }} />
    </section>
  );
}

/** /login-history (everyone in scope) and /users/:userId/login-history (one user). */
function AdminLoginHistoryPage() {
  const { t } = useTranslation('users');
  const params = useParams<{ userId?: string }>();
  const userId = params.userId;
  return (
    <section aria-labelledby="admin-history-title">
      <PageHeader id="admin-history-title" title={userId ? t('history.userTitle') : t('history.allTitle')} description={t('history.adminIntro')} />
      {/* A new key per user starts a fresh search. */}
      <LoginHistory key={userId ?? 'all'} scope={userId ? { kind: 'user', userId } : { kind: 'all' }} />
    </section>
  );
}

/** The screen behind its permission. */
export default function GatedAdminLoginHistoryPage() {
  return (
    <PermissionGate permission={P.LoginHistory.View}>
      <AdminLoginHistoryPage />
    </PermissionGate>
  );
}
