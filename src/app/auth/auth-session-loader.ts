import { useSyncExternalStore } from 'react';
import type { SnapshotFrom } from 'xstate';
import type { AuthSessionMachine } from '#machines/auth-session.machine.ts';
import { configureHttpAuth } from '#src/lib/http/auth-bridge.ts';
import { loadChunk } from '#src/lib/lazy-chunk.ts';
import { authUserStore } from './auth-user-store.ts';

/**
 * The auth-session actor's code (XState, the machine, the tab sync) is not part of the first
 * render (docs/decisions/0006): this module, which is, loads it on first need — a sign-in, a
 * 401 to refresh, a logout — or after the first content. Until then the access token comes
 * straight from the persisted authUser slice.
 */
type Runtime = typeof import('./auth-session.ts');
type AuthSnapshot = SnapshotFrom<AuthSessionMachine>;

let loading: Promise<Runtime> | null = null;
let runtime: Runtime | null = null;
const listeners = new Set<() => void>();

export function loadAuthSession(): Promise<Runtime> {
  loading ??= loadChunk(() => import('./auth-session.ts')).then((module) => {
    runtime = module;
    module.authSession.subscribe(() => listeners.forEach((listener) => listener()));
    listeners.forEach((listener) => listener());
    return module;
  });
  return loading;
}

/** The running runtime, or null while its code has not loaded. */
export function loadedAuthSession(): Runtime | null {
  return runtime;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The actor's snapshot for views, or null until the actor's code has loaded. Reading it does not
 * load the code (that would put XState in the first render); a submit or the first content does.
 */
export function useAuthSnapshot(): AuthSnapshot | null {
  return useSyncExternalStore(subscribe, () => (runtime ? runtime.authSession.getSnapshot() : null));
}

/** Remembers where to go after sign-in (a protected route visited while signed out). */
export function rememberRedirect(url: string | null) {
  if (runtime) runtime.authSession.send({ type: 'redirect.remember', url });
  else authUserStore.trigger.rememberRedirect({ url });
}

/** Sign out (the header's user menu). */
export async function signOut() {
  (await loadAuthSession()).authSession.send({ type: 'logout' });
}

configureHttpAuth({
  getAccessToken: () => authUserStore.getSnapshot().context.token,
  refreshSession: async () => (await loadAuthSession()).refreshSession(),
  onSessionExpired: () => {
    // The refresh call's own failure already ends the session in the actor; nothing more here.
  },
});
