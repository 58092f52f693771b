import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Permission } from '#machines/permissions.ts';
import { useHasPermission } from '#src/app/use-permission.ts';
import { EmptyState } from '#src/components/ui/states.tsx';

/** A screen that needs a permission: without it, a plain "not for you" note instead of a screen whose calls would all fail. */
export function PermissionGate({ permission, children }: { permission: Permission; children: ReactNode }) {
  const { t } = useTranslation('users');
  const allowed = useHasPermission(permission);
  if (!allowed) {
    return (
      <div role="alert" data-testid="no-access">
        <EmptyState title={t('noAccess.title')}>{t('noAccess.hint')}</EmptyState>
      </div>
    );
  }
  return children;
}
