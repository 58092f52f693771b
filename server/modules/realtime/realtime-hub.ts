import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { P } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { TicketChanged } from '#server/lib/domain-events.ts';
import type { Principal } from '#server/plugins/access.ts';
import type { AccessClaims } from '#server/modules/identity/jwt-tokens.ts';
import {
  appendEvent,
  CONTROL_CHANNEL,
  eventsForUser,
  eventsWithLocalAudience,
  EVENTS_CHANNEL,
  latestEventId,
  oldestEventId,
  usersWithRole,
  type RealtimeEventRow,
} from './realtime-repository.ts';
import { CloseCodes, type ClientMessage, type EventFrame, type ServerFrame } from '#machines/realtime-protocol.ts';

/** What verifying an access token on the socket gives (or why it failed). */
export type SocketAuthResult =
  { ok: true; claims: AccessClaims; principal: Principal; expiresAt: Date } | { ok: false; reason: 'expired' | 'invalid' | 'ended' };

export interface HubOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Verifies an access token and loads its principal, as the HTTP authenticator does. */
  verifyToken(token: string): Promise<SocketAuthResult>;
  /** Reloads the principal of a verified token (permissions changed; null: session over). */
  reloadPrincipal(claims: AccessClaims): Promise<Principal | undefined>;
  authTimeoutMs?: number;
  /** How many missed events a resume replays before it answers `resync` instead. */
  maxReplay?: number;
  heartbeatMs?: number;
  /** Safety net behind NOTIFY: how often the log is read even when nobody woke us. */
  pollMs?: number;
  /** A socket this far behind (bytes not yet sent) is closed; the client resumes from its cursor. */
  maxBufferedBytes?: number;
}

type ConnectionState = 'pending' | 'replaying' | 'live';

class Connection {
  state: ConnectionState = 'pending';
  claims?: AccessClaims;
  principal?: Principal;
  /** Cursor of the last event sent: nothing at or below it is sent again. */
  cursor = 0;
  buffer: EventFrame[] = [];
  alive = true;
  authTimer?: NodeJS.Timeout;
  expiryTimer?: NodeJS.Timeout;
  constructor(readonly socket: WebSocket) {}
  get userId() {
    return this.claims?.userId;
  }
}

const DRAIN_BATCH = 500;

/**
 * The real-time hub of `/api/hubs/notifications` (docs/decisions/0050). Every instance keeps
 * its own sockets; what to push comes from the `realtime_events` log, read in id order after a
 * NOTIFY (or a poll), with the audience of each event computed in SQL for the users connected
 * here. So a message committed through instance A reaches sockets on B, in order, exactly once.
 */
export class RealtimeHub {
  private readonly connections = new Set<Connection>();
  private readonly byUser = new Map<string, Set<Connection>>();
  private lastId = 0;
  /** Bumped when a user gets their first socket here; a log read begun before it is read again. */
  private audienceVersion = 0;
  private draining = false;
  private drainAgain = false;
  private stopped = false;
  private unlisten: Array<() => Promise<void>> = [];
  private timers: NodeJS.Timeout[] = [];
  private readonly o: Required<Omit<HubOptions, 'db' | 'clock' | 'log' | 'verifyToken' | 'reloadPrincipal'>> & HubOptions;

  constructor(options: HubOptions) {
    this.o = {
      authTimeoutMs: 10_000,
      maxReplay: 1000,
      heartbeatMs: 30_000,
      pollMs: 5_000,
      maxBufferedBytes: 4 * 1024 * 1024,
      ...options,
    };
  }

  get socketCount() {
    return this.connections.size;
  }

  async start() {
    this.lastId = await latestEventId(this.o.db);
    this.unlisten.push(await this.o.db.listen(EVENTS_CHANNEL, () => this.drain()));
    this.unlisten.push(await this.o.db.listen(CONTROL_CHANNEL, (payload) => void this.control(payload)));
    const poll = setInterval(() => {
      if (this.byUser.size) this.drain();
    }, this.o.pollMs);
    const heartbeat = setInterval(() => this.heartbeat(), this.o.heartbeatMs);
    poll.unref();
    heartbeat.unref();
    this.timers.push(poll, heartbeat);
  }

  async stop() {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const conn of [...this.connections]) this.close(conn, CloseCodes.goingAway, 'server shutting down');
    for (const unlisten of this.unlisten) await unlisten().catch(() => {});
  }

  /** Ticket changes come from the domain events (emitted after commit); the log entry is its own transaction. */
  async publishTicketChange(change: TicketChanged) {
    const { tenantId, ticketId, previousSupportGroupId, supportGroupId, previousAssigneeId, assigneeId } = change;
    await this.o.db.transaction((tx) =>
      appendEvent(tx, {
        tenantId,
        kind: 'ticket.changed',
        ticketId,
        previousGroupId: previousSupportGroupId !== null && previousSupportGroupId !== supportGroupId ? previousSupportGroupId : null,
        previousAssigneeId: previousAssigneeId !== null && previousAssigneeId !== assigneeId ? previousAssigneeId : null,
        payload: { ...change },
      }),
    );
  }

  // ---- sockets -------------------------------------------------------------------------------

  attach(socket: WebSocket) {
    const conn = new Connection(socket);
    if (this.stopped) {
      socket.close(CloseCodes.goingAway, 'server shutting down');
      return;
    }
    this.connections.add(conn);
    conn.authTimer = setTimeout(() => this.close(conn, CloseCodes.unauthenticated, 'authentication timeout'), this.o.authTimeoutMs);
    socket.on('pong', () => (conn.alive = true));
    socket.on('message', (data, isBinary) => {
      if (isBinary) return this.close(conn, CloseCodes.badMessage, 'text frames only');
      let message: ClientMessage;
      try {
        message = JSON.parse(data.toString()) as ClientMessage;
      } catch {
        return this.close(conn, CloseCodes.badMessage, 'not JSON');
      }
      void this.onMessage(conn, message).catch((error) => {
        this.o.log.error({ err: error }, 'realtime: message handling failed');
        this.close(conn, CloseCodes.internalError, 'internal error');
      });
    });
    socket.on('close', () => this.forget(conn));
    socket.on('error', () => this.forget(conn));
  }

  private async onMessage(conn: Connection, message: ClientMessage) {
    if (!message || typeof message !== 'object') return this.close(conn, CloseCodes.badMessage, 'unknown message');
    switch (message.type) {
      case 'ping':
        return this.send(conn, { type: 'pong' });
      case 'auth':
        return this.authenticate(conn, message);
      default:
        return this.close(conn, CloseCodes.badMessage, 'unknown message');
    }
  }

  private async authenticate(conn: Connection, message: Extract<ClientMessage, { type: 'auth' }>) {
    if (typeof message.token !== 'string' || message.token.length > 4096) return this.close(conn, CloseCodes.badMessage, 'token missing');
    const after = message.after;
    if (after !== undefined && after !== null && !(Number.isSafeInteger(after) && after >= 0)) {
      return this.close(conn, CloseCodes.badMessage, 'after must be a cursor (integer ≥ 0)');
    }
    const result = await this.o.verifyToken(message.token);
    if (conn.socket.readyState !== conn.socket.OPEN) return;
    if (!result.ok) {
      const reason = result.reason === 'expired' ? 'token expired' : result.reason === 'ended' ? 'session ended' : 'token invalid';
      return this.close(conn, result.reason === 'ended' ? CloseCodes.sessionEnded : CloseCodes.unauthenticated, reason);
    }
    this.armExpiry(conn, result.expiresAt);

    if (conn.state !== 'pending') {
      // A refreshed token on an open socket: same person only; the stream goes on untouched.
      if (result.claims.userId !== conn.userId) return this.close(conn, CloseCodes.sessionEnded, 'token of another user');
      conn.claims = result.claims;
      conn.principal = result.principal;
      return this.send(conn, { type: 'reauthenticated', expiresAt: result.expiresAt.toISOString() });
    }

    clearTimeout(conn.authTimer);
    conn.claims = result.claims;
    conn.principal = result.principal;
    const userId = result.claims.userId;
    let set = this.byUser.get(userId);
    if (!set) {
      this.byUser.set(userId, (set = new Set()));
      this.audienceVersion += 1;
    }
    set.add(conn);

    // From here on the drain routes this user's events to the connection (buffered while replaying).
    const snapshot = this.lastId;
    const resuming = after !== undefined && after !== null && after < snapshot;
    conn.state = resuming ? 'replaying' : 'live';
    conn.cursor = resuming ? after : Math.max(snapshot, after ?? 0);
    this.send(conn, { type: 'ready', userId, cursor: snapshot, expiresAt: result.expiresAt.toISOString() });
    if (!resuming) return;

    const oldest = await oldestEventId(this.o.db);
    const pruned = oldest > after + 1;
    const missed = pruned ? [] : await eventsForUser(this.o.db, userId, result.claims.tenantId, after, snapshot, this.o.maxReplay + 1);
    if (conn.socket.readyState !== conn.socket.OPEN) return;
    if (pruned || missed.length > this.o.maxReplay) {
      conn.cursor = snapshot;
      this.send(conn, { type: 'resync', cursor: snapshot });
    } else {
      for (const row of missed) this.deliverNow(conn, this.frameOf(row));
      conn.cursor = Math.max(conn.cursor, snapshot);
    }
    const buffered = conn.buffer;
    conn.buffer = [];
    conn.state = 'live';
    for (const frame of buffered) this.deliverNow(conn, frame);
  }

  private armExpiry(conn: Connection, expiresAt: Date) {
    clearTimeout(conn.expiryTimer);
    const ms = Math.max(0, expiresAt.getTime() - this.o.clock.now().getTime());
    conn.expiryTimer = setTimeout(() => this.close(conn, CloseCodes.unauthenticated, 'token expired'), Math.min(ms, 2 ** 31 - 1));
  }

  private heartbeat() {
    for (const conn of this.connections) {
      if (!conn.alive) {
        conn.socket.terminate();
        this.forget(conn);
        continue;
      }
      conn.alive = false;
      try {
        conn.socket.ping();
      } catch {
        this.forget(conn);
      }
    }
  }

  private send(conn: Connection, frame: ServerFrame) {
    if (conn.socket.readyState !== conn.socket.OPEN) return;
    if (conn.socket.bufferedAmount > this.o.maxBufferedBytes) {
      return this.close(conn, CloseCodes.tooSlow, 'client too slow; resume from your cursor');
    }
    conn.socket.send(JSON.stringify(frame));
  }

  private close(conn: Connection, code: number, reason: string) {
    this.forget(conn);
    if (conn.socket.readyState === conn.socket.OPEN || conn.socket.readyState === conn.socket.CONNECTING) {
      conn.socket.close(code, reason);
    }
  }

  private forget(conn: Connection) {
    clearTimeout(conn.authTimer);
    clearTimeout(conn.expiryTimer);
    this.connections.delete(conn);
    const userId = conn.userId;
    if (userId) {
      const set = this.byUser.get(userId);
      set?.delete(conn);
      if (set && !set.size) this.byUser.delete(userId);
    }
  }

  // ---- fan-out --------------------------------------------------------------------------------

  private frameOf(row: RealtimeEventRow): EventFrame {
    return {
      type: 'event',
      cursor: row.id,
      kind: row.kind,
      ticketId: row.ticket_id,
      data: row.payload,
      at: new Date(row.created_at).toISOString(),
    };
  }

  private mayReceive(conn: Connection, frame: EventFrame) {
    if (frame.kind === 'chat.message') return conn.principal?.permissions.has(P.SupportChat.Use) ?? false;
    return true;
  }

  private deliver(conn: Connection, frame: EventFrame) {
    if (conn.state === 'replaying') conn.buffer.push(frame);
    else if (conn.state === 'live') this.deliverNow(conn, frame);
  }

  private deliverNow(conn: Connection, frame: EventFrame) {
    if (frame.cursor <= conn.cursor || !this.mayReceive(conn, frame)) return;
    conn.cursor = frame.cursor;
    this.send(conn, frame);
  }

  /** Reads the log after the last id seen, in batches; wake-ups during a read cause one more read. */
  drain() {
    if (this.stopped) return;
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = true;
    void (async () => {
      try {
        do {
          this.drainAgain = false;
          let full = true;
          while (full && !this.stopped) {
            const users = [...this.byUser.keys()];
            const version = this.audienceVersion;
            if (!users.length) {
              // Nobody connected here: only move the read position on.
              const latest = await latestEventId(this.o.db);
              if (version !== this.audienceVersion) continue;
              this.lastId = Math.max(this.lastId, latest);
              break;
            }
            const rows = await eventsWithLocalAudience(this.o.db, this.lastId, users, DRAIN_BATCH);
            // Someone new connected while we read: read the batch again with them in the audience.
            if (version !== this.audienceVersion) continue;
            const eventIds = new Set(rows.map((r) => r.id));
            full = eventIds.size >= DRAIN_BATCH;
            // Delivery and the cursor move happen in one synchronous step (resumes rely on it).
            for (const row of rows) {
              if (row.user_id) for (const conn of this.byUser.get(row.user_id) ?? []) this.deliver(conn, this.frameOf(row));
              if (row.id > this.lastId) this.lastId = row.id;
            }
          }
        } while (this.drainAgain && !this.stopped);
      } catch (error) {
        if (!this.stopped) this.o.log.error({ err: error }, 'realtime: reading the event log failed; the next wake-up retries');
      } finally {
        this.draining = false;
      }
    })();
  }

  // ---- control signals from the database triggers -------------------------------------------

  private async control(payload: string) {
    let signal: { type: string; userId?: string; sessionId?: string; roleId?: string };
    try {
      signal = JSON.parse(payload);
    } catch {
      return;
    }
    try {
      switch (signal.type) {
        case 'session.revoked':
          for (const conn of [...this.connections]) {
            if (conn.claims?.sessionId === signal.sessionId) this.close(conn, CloseCodes.sessionEnded, 'session ended');
          }
          return;
        case 'user.revoked':
          return await this.revalidate(signal.userId ? [signal.userId] : [], false);
        case 'permissions.changed': {
          const users = signal.userId ? [signal.userId] : signal.roleId ? await usersWithRole(this.o.db, signal.roleId, [...this.byUser.keys()]) : [];
          return await this.revalidate(users, true);
        }
      }
    } catch (error) {
      this.o.log.error({ err: error, signal }, 'realtime: control signal failed');
    }
  }

  /** Reloads the principal of each socket of these users; closes those whose session is over. */
  private async revalidate(userIds: string[], announce: boolean) {
    for (const userId of userIds) {
      for (const conn of [...(this.byUser.get(userId) ?? [])]) {
        const principal = conn.claims ? await this.o.reloadPrincipal(conn.claims) : undefined;
        if (!principal) {
          this.close(conn, CloseCodes.sessionEnded, 'session ended');
          continue;
        }
        conn.principal = principal;
        if (announce) this.send(conn, { type: 'permissions.changed', permissions: [...principal.permissions].sort() });
      }
    }
  }
}
