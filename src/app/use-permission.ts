import { useSelector } from '@xstate/react';
import type { Permission } from '#machines/permissions.ts';
import { userPermissionsStore } from './stores/slices.ts';

/** Whether the signed-in user holds a permission (the userPermissions slice, fetched after sign-in). */
export function useHasPermission(permission: Permission): boolean {
  return useSelector(userPermissionsStore, (snapshot) => snapshot.context.permissions.includes(permission));
}
