import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { EmptyState } from '#src/components/ui/empty-state.tsx';
import { RequireSession } from '../auth/require-session.tsx';
import { userPermissionsStore } from '../stores/slices.ts';
import { accessOf } from './route-handle.ts';
import { useRouteMatches } from './use-route-matches.ts';

/**
 * The access check of the current page, from the route table: a route that needs a session
 * sends visitors to /login and back (docs/decisions/0062); one that needs a permission the user
 * lacks shows a plain "not for you" note instead of a screen whose calls would all fail.
 */
export function RouteAccess({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const access = accessOf(useRouteMatches());
  const permissions = useStoreValue(userPermissionsStore, (s) => s.context.permissions);
  if (!access.session) return children;
  const allowed = access.permissions.every((permission) => permissions.includes(permission));
  return (
    <RequireSession>
      {allowed ? (
        children
      ) : (
        <div role="alert" data-testid="no-access">
          <EmptyState title={t('access.deniedTitle')}>{t('access.deniedHint')}</EmptyState>
        </div>
      )}
    </RequireSession>
  );
}
