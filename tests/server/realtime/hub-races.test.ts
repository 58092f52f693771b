import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { P } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { systemClock } from '#server/lib/clock.ts';
import type { Principal } from '#server/plugins/access.ts';
import type { AccessClaims } from '#server/modules/identity/jwt-tokens.ts';
import { RealtimeHub } from '#server/modules/realtime/realtime-hub.ts';
import { appendEvent } from '#server/modules/realtime/realtime-repository.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createUser, type TestUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from '../tickets/fixture.ts';

/** Stands in for a ws socket: records what the hub sends. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readonly CONNECTING = 0;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Array<{ type: string; cursor?: number; [k: string]: unknown }> = [];
  closedWith?: number;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code: number) {
    this.readyState = 3;
    this.closedWith = code;
    this.emit('close', code, Buffer.from(''));
  }
  ping() {}
  terminate() {
    this.close(1006);
  }
  say(frame: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(frame)), false);
  }
}

/**
 * The test database, with a gate that holds the hub's next log read until released.
 * `hold()` closes the gate at once and then waits for log reads already sent to finish: one of
 * those (woken by an earlier notification) could otherwise still see an event posted after the
 * gate closed, and the test would no longer know which read delivers it.
 */
function gated(db: Db) {
  let closed: { opened: Promise<void>; open: () => void; arrived: () => void; reached: Promise<void> } | undefined;
  const inFlight = new Set<Promise<unknown>>();
  const wrapped: Db = {
    ...db,
    kind: db.kind,
    async query<T>(sql: string, params?: readonly unknown[]) {
      const isLogRead = sql.includes('with ev as');
      const gate = closed;
      if (gate && isLogRead) {
        closed = undefined;
        gate.arrived();
        await gate.opened;
        return db.query<T>(sql, params);
      }
      const read = db.query<T>(sql, params);
      if (!isLogRead) return read;
      inFlight.add(read);
      try {
        return await read;
      } finally {
        inFlight.delete(read);
      }
    },
    transaction: (fn) => db.transaction(fn),
    exec: (sql) => db.exec(sql),
    listen: (channel, fn) => db.listen(channel, fn),
    close: async () => {},
  };
  return {
    db: wrapped,
    async hold() {
      let open!: () => void;
      let arrived!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      const reached = new Promise<void>((r) => (arrived = r));
      closed = { opened, open, arrived, reached };
      await Promise.allSettled([...inFlight]);
      return { reached, open };
    },
  };
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describeEachDatabase('real-time hub races', (get) => {
  let f: TicketsFixture;
  let hub: RealtimeHub;
  let gate: ReturnType<typeof gated>;
  let agents: TestUser[];
  const principals = new Map<string, Principal>();

  beforeAll(async () => {
    const { app, db } = get();
    f = await ticketsFixture(app);
    agents = await Promise.all([1, 2, 3].map(() => createUser(db, { roles: ['SupportAgent'], groups: [f.groups.general] })));
    for (const a of agents) {
      principals.set(a.id, {
        userId: a.id,
        tenantId: 'root',
        email: a.email,
        firstName: a.firstName,
        lastName: a.lastName,
        userType: null,
        resellerId: null,
        instituteId: null,
        permissions: new Set([P.SupportChat.Use, P.SupportTickets.Work]),
        roles: ['SupportAgent'],
      });
    }
    gate = gated(db);
    hub = new RealtimeHub({
      db: gate.db,
      clock: systemClock,
      log: app.log,
      pollMs: 60_000,
      // The token is the user id here: these tests are about ordering, not authentication.
      async verifyToken(token) {
        const principal = principals.get(token);
        if (!principal) return { ok: false, reason: 'invalid' };
        const claims = { userId: token, tenantId: 'root', sessionId: token, tokenVersion: 0 } as AccessClaims;
        return { ok: true, claims, principal, expiresAt: new Date(Date.now() + 600_000) };
      },
      reloadPrincipal: async (claims) => principals.get(claims.userId),
    });
    await hub.start();
  });
  afterAll(async () => {
    await hub?.stop();
  });

  const open = async (user: TestUser, after?: number) => {
    const socket = new FakeSocket();
    hub.attach(socket as unknown as WebSocket);
    socket.say({ type: 'auth', token: user.id, ...(after === undefined ? {} : { after }) });
    await until(() => socket.sent.some((fr) => fr.type === 'ready'));
    return socket;
  };

  const post = async (ticketId: number, text: string) =>
    get().db.transaction((tx) => appendEvent(tx, { tenantId: 'root', kind: 'chat.message', ticketId, payload: { message: text } }));

  it('should deliver to a socket that connected while the log was being read', async () => {
    const ticket = await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general });
    const first = await open(agents[0]);
    const held = await gate.hold();
    const id = await post(ticket.ticketId, 'during the read');
    await held.reached; // the hub is reading, for the users connected so far
    let late: FakeSocket;
    try {
      late = await open(agents[1]);
    } finally {
      // Never leave the hub's reader parked: the next test shares the hub.
      held.open();
    }
    const readyCursor = late.sent[0].cursor!;
    expect(readyCursor).toBeLessThan(id);
    await until(() => late.sent.some((fr) => fr.cursor === id));
    await until(() => first.sent.some((fr) => fr.cursor === id));
    expect(late.sent.filter((fr) => fr.cursor === id)).toHaveLength(1);
  });

  it('should replay, buffer what arrives meanwhile, and then go live without gaps or doubles', async () => {
    const ticket = await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general });
    const watcher = await open(agents[0]);
    const base = await post(ticket.ticketId, 'base');
    await until(() => watcher.sent.some((fr) => fr.cursor === base));
    const missed = [await post(ticket.ticketId, 'missed 1'), await post(ticket.ticketId, 'missed 2')];
    await until(() => watcher.sent.some((fr) => fr.cursor === missed[1]));
    // Resume from `base` while more messages land during the replay.
    const resumed = new FakeSocket();
    hub.attach(resumed as unknown as WebSocket);
    resumed.say({ type: 'auth', token: agents[2].id, after: base });
    const live = await Promise.all([post(ticket.ticketId, 'live 1'), post(ticket.ticketId, 'live 2'), post(ticket.ticketId, 'live 3')]);
    await until(() => resumed.sent.some((fr) => fr.cursor === Math.max(...live)));
    const cursors = resumed.sent.filter((fr) => fr.type === 'event').map((fr) => fr.cursor);
    expect(cursors).toEqual([...missed, ...live].sort((a, b) => a - b));
  });
});
