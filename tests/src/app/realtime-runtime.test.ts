import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientMessage, EventFrame, ServerFrame } from '#machines/realtime-protocol.ts';
import { liveActors } from '#src/app/live-actors.ts';
import { bannerStore } from '#src/lib/http/banner-store.ts';
import { realtimeStatus, subscribeRealtime, type RealtimeNotice } from '#src/app/realtime/realtime-events.ts';
import { healthUrl, hubUrl, startRealtimeRuntime } from '#src/app/realtime/realtime-runtime.ts';
import type { RealtimeSession } from '#src/app/realtime/realtime-session.ts';
import { startRealtimeWhenSignedIn } from '#src/app/realtime/start-realtime.ts';

/** A WebSocket double: the test plays the hub. */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: ClientMessage[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text) as ClientMessage);
  }
  close() {
    this.readyState = FakeSocket.CLOSED;
  }
  // The hub's side:
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  frame(frame: ServerFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }
}

function fakeSession(initial: string | null) {
  let token = initial;
  let active = initial !== null;
  const listeners = new Set<() => void>();
  const signalRData: Array<Record<string, unknown>> = [];
  const session: RealtimeSession & { set(token: string | null, active?: boolean): void } = {
    token: () => token,
    active: () => active,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh: vi.fn(async () => 'refreshed'),
    mergeSignalRData: (data) => signalRData.push(data),
    set(next, nextActive = next !== null) {
      token = next;
      active = nextActive;
      listeners.forEach((l) => l());
    },
  };
  return { session, signalRData };
}

function fakeWindow() {
  const target = new EventTarget();
  return {
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    navigator: { onLine: true },
    fire: (type: string) => target.dispatchEvent(new Event(type)),
  };
}

const AT = '2026-11-22T10:00:00.000Z';
const ev = (cursor: number, extra: Partial<EventFrame> = {}): EventFrame => ({
  type: 'event',
  cursor,
  kind: 'ticket.changed',
  ticketId: 4,
  data: {},
  at: AT,
  ...extra,
});

let running: ReturnType<typeof startRealtimeRuntime> | null = null;
afterEach(() => {
  running?.stop();
  running = null;
  FakeSocket.all = [];
  vi.useRealTimers();
});

function start(token: string | null = 'T1', reachable: () => Promise<boolean> = async () => true) {
  const { session, signalRData } = fakeSession(token);
  const win = fakeWindow();
  const notices: RealtimeNotice[] = [];
  const unsubscribe = subscribeRealtime((n) => notices.push(n));
  const setPermissions = vi.fn();
  running = startRealtimeRuntime({
    session,
    url: 'ws://hub.test/api/hubs/notifications',
    WebSocket: FakeSocket as never,
    random: () => 0.5,
    window: win,
    setPermissions,
    reachable,
  });
  const stop = running.stop;
  running.stop = () => {
    unsubscribe();
    stop();
  };
  return {
    session,
    signalRData,
    win,
    notices,
    setPermissions,
    events: () => notices.filter((n) => n.type === 'event').map((n) => (n as { frame: EventFrame }).frame.cursor),
  };
}

describe('hubUrl', () => {
  it('should turn the service base into the hub WebSocket URL', () => {
    expect(hubUrl('/api', { href: 'http://127.0.0.1:5173/tickets/4' })).toBe('ws://127.0.0.1:5173/api/hubs/notifications');
    expect(hubUrl('https://api.example.test/api/', { href: 'https://app.example.test/' })).toBe('wss://api.example.test/api/hubs/notifications');
  });
  it('should ask for the health route beside the hub', () => {
    expect(healthUrl('ws://127.0.0.1:5173/api/hubs/notifications')).toBe('http://127.0.0.1:5173/api/health');
    expect(healthUrl('wss://host.test/portal/api/hubs/notifications')).toBe('https://host.test/portal/api/health');
  });
});

describe('realtime runtime', () => {
  it('should authenticate with the first frame, publish events once each and resume from its cursor after a drop', async () => {
    vi.useFakeTimers();
    const h = start();
    expect(FakeSocket.all).toHaveLength(1);
    const first = FakeSocket.all[0];
    first.open();
    expect(first.sent).toEqual([{ type: 'auth', token: 'T1', after: null }]);
    first.frame({ type: 'ready', userId: 'u1', cursor: 100, expiresAt: AT });
    expect(realtimeStatus()).toBe('live');
    first.frame(ev(101));
    first.frame(ev(102));
    first.drop();
    expect(realtimeStatus()).toBe('reconnecting');
    // Back-off with the injected random: attempt 1 waits 0.5 × 1000 ms.
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const second = FakeSocket.all[1];
    second.open();
    expect(second.sent).toEqual([{ type: 'auth', token: 'T1', after: 102 }]);
    second.frame({ type: 'ready', userId: 'u1', cursor: 104, expiresAt: AT });
    for (const c of [102, 103, 104]) second.frame(ev(c));
    expect(h.events()).toEqual([101, 102, 103, 104]);
    expect(h.notices.filter((n) => n.type === 'connected')).toEqual([
      { type: 'connected', resumed: false },
      { type: 'connected', resumed: true },
    ]);
    expect(h.signalRData.at(-1)).toMatchObject({ connection: 'live' });
  });

  it('should close while the browser is offline and reconnect when it is back', () => {
    const h = start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    h.win.fire('offline');
    expect(realtimeStatus()).toBe('offline');
    // The app's one offline message (issue 23).
    expect(bannerStore.getSnapshot().context.message).toBe('network');
    expect(FakeSocket.all[0].readyState).toBe(FakeSocket.CLOSED);
    h.win.fire('online');
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1].open();
    expect(FakeSocket.all[1].sent).toEqual([{ type: 'auth', token: 'T1', after: 5 }]);
    FakeSocket.all[1].frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    expect(realtimeStatus()).toBe('live');
    expect(bannerStore.getSnapshot().context.message).toBeNull();
  });

  it('should show the offline banner while the server gives no answer, with the browser online and no call made (issue 23)', async () => {
    vi.useFakeTimers();
    bannerStore.trigger.clear();
    const answers = [false, false, true];
    const reachable = vi.fn(async () => answers.shift() ?? true);
    start('T1', reachable);
    FakeSocket.all[0].open();
    FakeSocket.all[0].frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    // The server goes away: the first drop may be a restart, so nobody is asked yet.
    FakeSocket.all[0].drop();
    await vi.advanceTimersByTimeAsync(500);
    expect(reachable).not.toHaveBeenCalled();
    expect(bannerStore.getSnapshot().context.message).toBeNull();
    // The reconnect fails too: the server is asked, gives no answer, the banner says so.
    FakeSocket.all[1].drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(reachable).toHaveBeenCalledTimes(1);
    expect(bannerStore.getSnapshot().context.message).toBe('network');
    // Once per attempt, not per state change.
    await vi.advanceTimersByTimeAsync(1000);
    expect(reachable).toHaveBeenCalledTimes(1);
    FakeSocket.all[2].drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(reachable).toHaveBeenCalledTimes(2);
    // Back: the socket is live again and the banner goes.
    await vi.advanceTimersByTimeAsync(2000);
    FakeSocket.all[3].open();
    FakeSocket.all[3].frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    expect(realtimeStatus()).toBe('live');
    expect(bannerStore.getSnapshot().context.message).toBeNull();
  });

  it('should not show the banner when the hub refuses sockets but the server answers', async () => {
    vi.useFakeTimers();
    bannerStore.trigger.clear();
    const reachable = vi.fn(async () => true);
    start('T1', reachable);
    FakeSocket.all[0].drop();
    await vi.advanceTimersByTimeAsync(500);
    FakeSocket.all[1].drop();
    await vi.advanceTimersByTimeAsync(1000);
    FakeSocket.all[2].drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(reachable).toHaveBeenCalledTimes(2);
    expect(bannerStore.getSnapshot().context.message).toBeNull();
  });

  it('should re-authenticate after a token refresh, ask for a token on 4401, and follow sign-out and sign-in', async () => {
    const h = start();
    const socket = FakeSocket.all[0];
    socket.open();
    socket.frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    h.session.set('T2');
    expect(socket.sent.at(-1)).toEqual({ type: 'auth', token: 'T2' });
    expect(FakeSocket.all).toHaveLength(1);

    // Expired: the session clears the token while it refreshes; the socket is refused.
    h.session.set(null, true);
    socket.drop(4401);
    await Promise.resolve();
    expect(h.session.refresh).toHaveBeenCalledTimes(1);
    h.session.set('T3');
    FakeSocket.all[1].open();
    expect(FakeSocket.all[1].sent).toEqual([{ type: 'auth', token: 'T3', after: 5 }]);

    h.session.set(null, false);
    expect(FakeSocket.all[1].readyState).toBe(FakeSocket.CLOSED);
    expect(realtimeStatus()).toBe('off');
    h.session.set('T4');
    FakeSocket.all[2].open();
    expect(FakeSocket.all[2].sent).toEqual([{ type: 'auth', token: 'T4', after: null }]);
  });

  it('should pass permission changes on', () => {
    const h = start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    FakeSocket.all[0].frame({ type: 'permissions.changed', permissions: ['Permissions.SupportChat.Use'] });
    expect(h.setPermissions).toHaveBeenCalledWith(['Permissions.SupportChat.Use']);
  });

  it('should reconnect with the session’s newer token when the hub ends the old one (a password change here)', async () => {
    const h = start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    // The change-password answer brought new tokens; the hub closes the socket of the old one.
    h.session.set('T-new');
    FakeSocket.all[0].drop(4403);
    await Promise.resolve();
    expect(h.session.refresh).not.toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1].open();
    expect(FakeSocket.all[1].sent).toEqual([{ type: 'auth', token: 'T-new', after: 5 }]);
  });

  it('should leave a session the hub ended to the session: it refreshes, and a failed refresh signs out', async () => {
    const h = start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].frame({ type: 'ready', userId: 'u1', cursor: 5, expiresAt: AT });
    FakeSocket.all[0].drop(4403);
    await Promise.resolve();
    // One fresh socket with the same token first (the close may have raced a re-authentication) …
    expect(h.session.refresh).not.toHaveBeenCalled();
    FakeSocket.all[1].open();
    expect(FakeSocket.all[1].sent).toEqual([{ type: 'auth', token: 'T1', after: 5 }]);
    // … refused again: now the session is asked.
    FakeSocket.all[1].drop(4403);
    await Promise.resolve();
    expect(h.session.refresh).toHaveBeenCalledTimes(1);
    expect(realtimeStatus()).toBe('reconnecting');
    // The refresh is refused: the auth session signs out.
    h.session.set(null, false);
    expect(realtimeStatus()).toBe('off');
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('should keep unread counts of others’ messages in signalRData and list itself for /machines', () => {
    const h = start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].frame({ type: 'ready', userId: 'me', cursor: 1, expiresAt: AT });
    FakeSocket.all[0].frame(ev(2, { kind: 'chat.message', ticketId: 9, data: { fromUserId: 'agent' } }));
    FakeSocket.all[0].frame(ev(3, { kind: 'chat.message', ticketId: 9, data: { fromUserId: 'me' } }));
    FakeSocket.all[0].frame(ev(4, { kind: 'chat.message', ticketId: 9, data: { fromUserId: 'agent' } }));
    expect(h.signalRData.at(-1)).toMatchObject({ unread: { 9: 2 } });
    FakeSocket.all[0].frame(ev(5, { kind: 'chat.read', ticketId: 9, data: { unreadCount: 0 } }));
    expect(h.signalRData.at(-1)).toMatchObject({ unread: { 9: 0 } });
    expect(
      liveActors()
        .find((a) => a.id === 'realtime-connection')
        ?.actorRef.getSnapshot().value,
    ).toEqual({ online: 'connected' });
  });

  it('should close a socket that is still connecting only once it opens (no browser error)', () => {
    const h = start();
    const socket = FakeSocket.all[0];
    const close = vi.spyOn(socket, 'close');
    h.session.set(null, false);
    expect(close).not.toHaveBeenCalled();
    socket.open();
    expect(close).toHaveBeenCalledWith(1000);
    expect(socket.sent).toEqual([]);
  });

  it('should not open a socket while nobody is signed in', () => {
    start(null);
    expect(FakeSocket.all).toHaveLength(0);
    expect(realtimeStatus()).toBe('off');
  });
});

describe('startRealtimeWhenSignedIn', () => {
  it('should load the connection only once someone signs in, and only once', async () => {
    const { session } = fakeSession(null);
    const started: unknown[] = [];
    const load = vi.fn(async () => ({ startRealtimeRuntime: ((options: unknown) => (started.push(options), { stop: () => {} })) as never }));
    const pending = startRealtimeWhenSignedIn(session, { load: load as never });
    await Promise.resolve();
    expect(load).not.toHaveBeenCalled();
    session.set('T1');
    session.set('T2');
    await pending;
    expect(load).toHaveBeenCalledTimes(1);
    expect(started).toEqual([expect.objectContaining({ session })]);
  });
});
