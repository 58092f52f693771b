import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { sessionApi } from './session-api.ts';
import { authUserStore } from './auth-user-store.ts';

/** docs/decisions/0046: how often a signed-in tab asks again which permissions it holds. */
export const PERMISSIONS_REFRESH_MS = 60_000;

let inFlight: Promise<void> | null = null;

/**
 * Fetches `/personal/permissions` again and replaces the userPermissions slice, so a role an
 * administrator gave or took shows in the menu without signing in again. A failed call leaves
 * the slice as it was (a 401 goes through the usual refresh / sign-out path).
 */
export function refreshPermissions(): Promise<void> {
  const token = authUserStore.getSnapshot().context.token;
  if (!token) return Promise.resolve();
  inFlight ??= sessionApi
    .permissions(token)
    .then(
      (permissions) => {
        if (authUserStore.getSnapshot().context.token) userPermissionsStore.trigger.update({ permissions: Array.isArray(permissions) ? permissions : [] });
      },
      () => undefined,
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/**
 * Refreshes the permissions now, when the tab comes back into view or gets focus, and every
 * PERMISSIONS_REFRESH_MS while it is visible. Returns the stop function.
 */
export function startPermissionsRefresh(intervalMs = PERMISSIONS_REFRESH_MS): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') void refreshPermissions();
  };
  window.addEventListener('focus', onVisible);
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(onVisible, intervalMs);
  void refreshPermissions();
  return () => {
    window.removeEventListener('focus', onVisible);
    document.removeEventListener('visibilitychange', onVisible);
    clearInterval(timer);
  };
}
