import type { AuthUser, TokenPair } from '#machines/auth-session.machine.ts';

export type SyncedSession = TokenPair & { user?: AuthUser | null };

export interface TabSync {
  /** This tab obtained tokens (sign-in, refresh): the other tabs take them over. */
  announce(session: SyncedSession): void;
  /** This tab's session ended (logout, refused refresh): the other tabs end theirs. */
  announceEnded(): void;
  listen(handlers: { synced(session: SyncedSession): void; ended(): void }): void;
  /**
   * Runs `task` while no other tab of this browser runs one (Web Locks): one refresh per
   * browser, since two tabs presenting one refresh token would look like reuse and end the
   * session (docs/decisions/0032). `otherTabRefreshed` says another tab got new tokens since
   * this one last heard of any; they are on their way by message.
   */
  exclusive<T>(task: (otherTabRefreshed: boolean) => Promise<T>): Promise<T>;
}

type Message = { type: 'synced'; rev: string; session: SyncedSession } | { type: 'ended'; rev: string };

function randomRev() {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
}

/**
 * Tabs of one browser share one session (docs/decisions/0061): tokens and logouts travel over a
 * BroadcastChannel; a revision id (not a secret) in localStorage says whether another tab
 * refreshed while this one waited for the lock.
 */
export function createTabSync(
  productKey: string,
  env: { storage?: Storage | null; locks?: LockManager | null; channel?: BroadcastChannel | null } = {},
): TabSync {
  const storage = env.storage !== undefined ? env.storage : safeStorage();
  const locks = env.locks !== undefined ? env.locks : (globalThis.navigator?.locks ?? null);
  const channel = env.channel !== undefined ? env.channel : typeof BroadcastChannel === 'function' ? new BroadcastChannel(`${productKey}:auth`) : null;
  const revKey = `${productKey}:session-rev`;
  const readRev = () => {
    try {
      return storage?.getItem(revKey) ?? null;
    } catch {
      return null;
    }
  };
  let knownRev = readRev();
  const publish = (message: Message) => {
    knownRev = message.rev;
    try {
      storage?.setItem(revKey, message.rev);
    } catch {
      // Storage blocked: the lock and the messages still do the work.
    }
    channel?.postMessage(message);
  };
  return {
    announce: (session) => publish({ type: 'synced', rev: randomRev(), session }),
    announceEnded: () => publish({ type: 'ended', rev: randomRev() }),
    listen(handlers) {
      channel?.addEventListener('message', (event: MessageEvent<Message>) => {
        const message = event.data;
        if (!message || typeof message !== 'object') return;
        knownRev = message.rev;
        if (message.type === 'synced') handlers.synced(message.session);
        else if (message.type === 'ended') handlers.ended();
      });
    },
    async exclusive(task) {
      const run = () => {
        const rev = readRev();
        return task(rev !== null && rev !== knownRev);
      };
      if (!locks) return run();
      return locks.request(`${productKey}:auth-refresh`, run) as Promise<Awaited<ReturnType<typeof task>>>;
    },
  };
}

function safeStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
