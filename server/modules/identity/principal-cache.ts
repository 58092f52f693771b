import type { Db } from '#server/db/client.ts';
import type { Principal } from '#server/plugins/access.ts';
import { CONTROL_CHANNEL } from '#server/modules/realtime/realtime-repository.ts';
import type { AccessClaims } from './jwt-tokens.ts';
import { loadPrincipalWithExpiry } from './principal-repository.ts';

interface Entry {
  principal: Principal;
  userId: string;
  tenantId: string;
  sessionExpiresAt: number;
}

/** The `realtime_control` payloads (migrations 0005 and 0040). */
interface ControlSignal {
  type?: string;
  userId?: string;
  sessionId?: string;
  tenantId?: string;
  roleId?: string;
}

/**
 * The callers of recent requests, kept per instance so a signed-in request needs no principal
 * query (docs/decisions/0130). Freshness comes from the database triggers' `realtime_control`
 * NOTIFY, which every instance receives on commit of a revocation, a token-version bump, a
 * deactivation, a role or profile change: the matching entries are dropped before the next
 * request is read. Nothing is served from the cache while the LISTEN connection is down (a
 * signal may have been missed then), and a load that raced with a signal is not kept.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every signal: a load begun before it may have read the old rows. */
  private generation = 0;
  private live = false;
  private stopListening: Array<() => unknown> = [];

  constructor(
    private readonly db: Db,
    private readonly maxEntries = 10_000,
  ) {}

  async start(): Promise<void> {
    // Own commits first: the request after a logout on this instance must already be refused.
    const unlisten = await this.db.listen(CONTROL_CHANNEL, (payload) => this.signal(payload), { ownCommitsFirst: true });
    this.stopListening.push(unlisten);
    const unwatch = this.db.onListenState?.((listening) => {
      this.generation += 1;
      this.entries.clear();
      this.live = listening;
    });
    if (unwatch) this.stopListening.push(unwatch);
    this.live = true;
  }

  async stop(): Promise<void> {
    this.live = false;
    this.entries.clear();
    // At shutdown the database may already be closed (onClose order); its listeners went with it.
    for (const stop of this.stopListening.splice(0)) {
      try {
        await stop();
      } catch {
        // Closed with the database: nothing is listening any more.
      }
    }
  }

  get size() {
    return this.entries.size;
  }

  /** The principal of verified claims: from the cache, or loaded (and kept) when not there. */
  async load(claims: AccessClaims, now: Date): Promise<Principal | undefined> {
    const key = `${claims.sessionId}\u0000${claims.userId}\u0000${claims.tenantId}\u0000${claims.tokenVersion}`;
    const hit = this.live ? this.entries.get(key) : undefined;
    if (hit && hit.sessionExpiresAt > now.getTime()) return hit.principal;
    if (hit) this.entries.delete(key);
    const generation = this.generation;
    const loaded = await loadPrincipalWithExpiry(this.db, claims, now);
    if (loaded && this.live && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, {
        principal: loaded.principal,
        userId: claims.userId,
        tenantId: claims.tenantId,
        sessionExpiresAt: loaded.sessionExpiresAt.getTime(),
      });
    }
    return loaded?.principal;
  }

  private signal(payload: string) {
    this.generation += 1;
    let signal: ControlSignal;
    try {
      signal = JSON.parse(payload) as ControlSignal;
    } catch {
      this.entries.clear();
      return;
    }
    const drop = (matches: (entry: Entry, key: string) => boolean) => {
      for (const [key, entry] of this.entries) if (matches(entry, key)) this.entries.delete(key);
    };
    switch (signal.type) {
      case 'session.revoked':
      case 'user.revoked':
      case 'principal.changed':
        if (signal.userId) return drop((entry) => entry.userId === signal.userId);
        if (signal.sessionId) return drop((_, key) => key.startsWith(`${signal.sessionId}\u0000`));
        return this.entries.clear();
      case 'permissions.changed':
        // A role's permissions reach every holder of the role: rare enough to start afresh.
        if (signal.userId && !signal.roleId) return drop((entry) => entry.userId === signal.userId);
        return this.entries.clear();
      case 'tenant.changed':
        if (signal.tenantId) return drop((entry) => entry.tenantId === signal.tenantId);
        return this.entries.clear();
      default:
        // A signal this version does not know: whatever it means, nothing kept can be trusted.
        return this.entries.clear();
    }
  }
}
