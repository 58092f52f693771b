import { localizationStore } from '../stores/localization-store.ts';
import { useSelector } from '@xstate/react';
import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import { authSessionMachine, sessionOf, tokenExpiry, type AuthSessionMachine } from '#machines/auth-session.machine.ts';
import { appConfig } from '#src/lib/config.ts';
import { userPermissionsStore } from '../stores/slices.ts';
import { resetClientState } from '../stores/persisted-state.ts';
import { authUserStore } from './auth-user-store.ts';
import { startPermissionsRefresh } from './permissions-refresh.ts';
import { sessionApi, type SessionApi } from './session-api.ts';
import { createTabSync, type TabSync } from './tab-sync.ts';
import { registerLiveActor } from '../live-actors.ts';
import { endSession } from './session-end.ts';

export type AuthSessionActor = Actor<AuthSessionMachine>;

export interface AuthSessionDeps {
  api: SessionApi;
  /** The persisted authUser slice: read once to restore, then written on every change. */
  store: typeof authUserStore;
  tabs: TabSync;
  /** "Destroys the session": the saved client state is forgotten. */
  destroy: () => void;
  setPermissions: (permissions: string[]) => void;
  now?: () => number;
  /** Refresh a session restored as expired right away (default); model tests drive it themselves. */
  refreshExpiredAtStart?: boolean;
  /** Tests: other lengths for the machine's named delays (the resend cooldown). */
  delays?: { resendCooldown?: number };
}

/**
 * Creates and starts the auth-session actor with its I/O: the HTTP calls, the persisted slice,
 * the other tabs (docs/decisions/0061). Returned with `refreshSession`, what the HTTP layer's
 * refresh queue calls on a 401.
 */
export function startAuthSession(deps: AuthSessionDeps) {
  const now = deps.now ?? Date.now;
  const machine = authSessionMachine.provide({
    actors: {
      requestCode: fromPromise(({ input }) => deps.api.requestCode(input)),
      resendCode: fromPromise(({ input }) => deps.api.resendCode(input)),
      verifyCode: fromPromise(({ input }) => deps.api.verifyCode(input)),
      refreshTokens: fromPromise(({ input }) => deps.api.refreshTokens(input)),
      invalidateSession: fromPromise(({ input }) => deps.api.invalidateSession(input)),
    },
    ...(deps.delays?.resendCooldown !== undefined ? { delays: { resendCooldown: deps.delays.resendCooldown } } : {}),
    actions: {
      destroySession: () => deps.destroy(),
      loadPermissions: ({ context }) => {
        const token = context.token;
        if (!token) return;
        deps.api.permissions(token).then(
          (permissions) => deps.setPermissions(Array.isArray(permissions) ? permissions : []),
          (error: unknown) => console.error('The permissions could not be fetched', error),
        );
      },
    },
  });
  const actor = createActor(machine, { systemId: 'authSession' });
  // The /machines page shows where the session is and what it last received.
  registerLiveActor('auth-session', machine, actor);
  // The saved session, read before the actor runs (nothing is written while it is restoring).
  const saved = deps.store.getSnapshot().context;

  // One writer of the persisted slice from now on: the actor.
  let previous: SnapshotFrom<AuthSessionMachine> | null = null;
  let remoteChange = false;
  actor.subscribe((snapshot) => {
    // Nothing to write before the saved session is taken over.
    if (snapshot.matches('restoring')) return;
    const session = sessionOf(snapshot.context);
    // Only real changes: an unchanged session must not rewrite the saved state.
    if (JSON.stringify(deps.store.getSnapshot().context) !== JSON.stringify(session)) deps.store.trigger.set({ session });
    // Tell the other tabs about tokens obtained here and about a session ended here.
    if (previous && !remoteChange) {
      const before = previous.context;
      const after = snapshot.context;
      if (after.token && after.token !== before.token && after.refreshToken) {
        deps.tabs.announce({
          token: after.token,
          refreshToken: after.refreshToken,
          refreshTokenExpiryTime: after.refreshTokenExpiryTime ?? '',
          user: after.user,
        });
      } else if (before.refreshToken && !after.refreshToken) {
        deps.tabs.announceEnded();
      }
    }
    previous = snapshot;
  });
  actor.start();

  const fromOtherTab = (send: () => void) => {
    remoteChange = true;
    try {
      send();
    } finally {
      remoteChange = false;
    }
  };
  deps.tabs.listen({
    synced: (session) => fromOtherTab(() => actor.send({ type: 'session.synced', session })),
    ended: () => fromOtherTab(() => actor.send({ type: 'session.ended' })),
  });

  // Restoring is not news for the other tabs: they restored the same saved session.
  fromOtherTab(() => {
    actor.send({ type: 'session.restore', session: saved });
    const sessionEnd = saved.refreshTokenExpiryTime ? Date.parse(saved.refreshTokenExpiryTime) : NaN;
    if (!Number.isNaN(sessionEnd) && sessionEnd <= now()) {
      actor.send({ type: 'session.ended' });
    } else {
      const expiry = tokenExpiry(actor.getSnapshot().context.token);
      if (expiry !== null && expiry * 1000 <= now()) actor.send({ type: 'session.expired' });
    }
  });

  /** Resolves with the next access token; one refresh per browser at a time (docs/decisions/0032). */
  async function refreshSession(): Promise<string> {
    const tokenAtCall = actor.getSnapshot().context.token;
    return deps.tabs.exclusive(async (otherTabRefreshed) => {
      // Another tab refreshed while this one waited: its tokens arrive (or arrived) by message.
      if (otherTabRefreshed) await waitForToken((token) => token !== null && token !== tokenAtCall, 3000);
      const current = actor.getSnapshot();
      if (current.context.token && current.context.token !== tokenAtCall && current.context.isLoggedIn) return current.context.token;
      if (!current.can({ type: 'token.refresh' }) && !current.matches('refreshing')) throw new Error('No session to refresh');
      if (!current.matches('refreshing')) actor.send({ type: 'token.refresh' });
      const settled = await new Promise<SnapshotFrom<AuthSessionMachine>>((resolve) => {
        const check = (snapshot: SnapshotFrom<AuthSessionMachine>) => {
          if (snapshot.matches('refreshing')) return false;
          resolve(snapshot);
          return true;
        };
        if (check(actor.getSnapshot())) return;
        const subscription = actor.subscribe((snapshot) => {
          if (check(snapshot)) subscription.unsubscribe();
        });
      });
      if (settled.matches('signedIn') && settled.context.token) return settled.context.token;
      throw new Error('The session could not be refreshed');
    });
  }

  function waitForToken(accept: (token: string | null) => boolean, ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (accept(actor.getSnapshot().context.token)) return resolve();
      const timer = setTimeout(done, ms);
      const subscription = actor.subscribe((snapshot) => {
        if (accept(snapshot.context.token)) done();
      });
      function done() {
        clearTimeout(timer);
        subscription.unsubscribe();
        resolve();
      }
    });
  }

  // Someone is here with an expired session: get a fresh token now rather than at the first 401.
  if (deps.refreshExpiredAtStart !== false && actor.getSnapshot().matches('expired')) refreshSession().catch(() => {});

  return { actor, refreshSession };
}

/**
 * Spec §4 "destroys the session": the saved slices go (the language and the menu stay as they
 * are), and so does what features keep in memory for the signed-in person (chat drafts).
 */
export async function destroyClientSession(): Promise<void> {
  endSession();
  const language = localizationStore.getSnapshot().context.i18n;
  await resetClientState({ keep: ['localization', 'menu'] });
  // Clearing the saved state forgot the language too, so it was lost at the next reload (issue
  // 21): setting it again saves it afresh. (Here, not in the persistence: this chunk loads after the first content.)
  localizationStore.trigger.update({ i18n: language });
}

/** The app's running auth session (systemId `authSession`), for other features to read. */
const started = startAuthSession({
  api: sessionApi,
  store: authUserStore,
  tabs: createTabSync(appConfig.productKey),
  destroy: () => void destroyClientSession(),
  setPermissions: (permissions) => userPermissionsStore.trigger.update({ permissions }),
});

export const authSession: AuthSessionActor = started.actor;
export const refreshSession = started.refreshSession;

// A role given or taken by an administrator reaches the menu without a new sign-in (docs/decisions/0046).
startPermissionsRefresh();

/** Views: `useAuthSession((s) => s.context.user)`. */
export function useAuthSession<T>(selector: (snapshot: SnapshotFrom<AuthSessionMachine>) => T): T {
  return useSelector(authSession, selector);
}
