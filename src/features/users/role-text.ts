import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { roleNames, type RoleName } from '#machines/permissions.ts';

const isSeededName = (name: string): name is RoleName => (roleNames as readonly string[]).includes(name);

/** 'Permissions.Users.Update' → ['Users', 'Update']; null for anything else. */
export function permissionParts(permission: string): [resource: string, action: string] | null {
  const match = /^Permissions\.([A-Za-z]+)\.([A-Za-z]+)$/.exec(permission);
  return match ? [match[1], match[2]] : null;
}

/**
 * Words for roles and permissions in the user's language (issue 23). The seeded roles' names
 * and descriptions and every catalogue permission are translated; a custom role keeps the name
 * and description its author wrote. A permission outside the catalogue is shown as it is.
 */
export function useRoleText() {
  const { t } = useTranslation('users');
  const roleName = useCallback((name: string) => (isSeededName(name) ? t(`roleNames.${name}`) : name), [t]);
  const roleDescription = useCallback((name: string, description: string) => (isSeededName(name) ? t(`roleDescriptions.${name}`) : description), [t]);
  const resourceName = useCallback((resource: string) => t(`permissionNames.${resource}.title`, { defaultValue: resource }), [t]);
  const permissionName = useCallback(
    (permission: string) => {
      const parts = permissionParts(permission);
      if (!parts) return permission;
      const [resource, action] = parts;
      return t('permissionNames.format', {
        resource: resourceName(resource),
        action: t(`permissionNames.${resource}.${action}`, { defaultValue: action }),
      });
    },
    [t, resourceName],
  );
  const actionName = useCallback(
    (permission: string) => {
      const parts = permissionParts(permission);
      return parts ? t(`permissionNames.${parts[0]}.${parts[1]}`, { defaultValue: parts[1] }) : permission;
    },
    [t],
  );
  return useMemo(
    () => ({ roleName, roleDescription, resourceName, permissionName, actionName }),
    [roleName, roleDescription, resourceName, permissionName, actionName],
  );
}
