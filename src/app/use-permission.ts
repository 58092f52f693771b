import { useStoreValue } from '#src/lib/use-store-value.ts';
import type { Permission } from '#machines/permissions.ts';
import { userPermissionsStore } from './stores/slices.ts';

/** Whether the signed-in user holds a permission (the userPermissions slice, fetched after sign-in). */
export function useHasPermission(permission: Permission): boolean {
  return useStoreValue(userPermissionsStore, (snapshot) => snapshot.context.permissions.includes(permission));
}
