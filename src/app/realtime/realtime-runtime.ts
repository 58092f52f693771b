import { createActor, fromCallback, type Actor, type SnapshotFrom } from 'xstate';
import { backoffDelay, realtimeConnectionMachine, type RealtimeConnectionMachine, type SocketInput } from '#machines/realtime-connection.machine.ts';
import { CloseCodes, type ClientMessage, type EventFrame, type ServerFrame } from '#machines/realtime-protocol.ts';
import { bannerStore } from '#src/lib/http/banner-store.ts';
import { registerLiveActor } from '../live-actors.ts';
import { publishRealtime, setRealtimeStatus, setRealtimeUserId, type RealtimeStatus } from './realtime-events.ts';
import type { RealtimeSession } from './realtime-session.ts';

/**
 * The running realtime connection (docs/decisions/0056): the realtime-connection actor with
 * its I/O — a browser WebSocket, the window's online/offline events, the session's token — and
 * what it hands on: pushed events to the open screens (realtime-events.ts), a summary to the
 * auth session's `signalRData`, permission changes to the permissions slice. Loaded only once
 * someone is signed in (start-realtime.ts), so neither XState nor this code is in the first
 * render of / or /login.
 */
export interface RealtimeRuntimeOptions {
  session: RealtimeSession;
  /** `ws://host/api/hubs/notifications` by default (from the notification service's base URL). */
  url?: string;
  WebSocket?: typeof WebSocket;
  random?: () => number;
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { navigator?: { onLine?: boolean } };
  setPermissions?: (permissions: string[]) => void;
  /**
   * Whether the server answers at all (any HTTP status), asked after reconnect attempts keep
   * failing; by default a GET of the API's `/health` beside the hub.
   */
  reachable?: () => Promise<boolean>;
}

/** Failed reconnect attempts in a row after which the runtime asks whether the server answers. */
export const UNREACHABLE_AFTER_ATTEMPTS = 2;

/** The API's health URL beside a hub URL (`ws://host/api/hubs/notifications` → `http://host/api/health`). */
export function healthUrl(hub: string): string {
  const url = new URL(hub);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  url.pathname = url.pathname.replace(/\/hubs\/notifications\/?$/, '/health');
  url.search = '';
  return url.toString();
}

const answers = (url: string) => () =>
  fetch(url, { cache: 'no-store', credentials: 'omit' }).then(
    () => true,
    () => false,
  );

export type RealtimeConnectionActor = Actor<RealtimeConnectionMachine>;

/** The hub's URL for a base like `/api` or `https://host/api`. */
export function hubUrl(base: string, location: { href: string }): string {
  const url = new URL(`${base.replace(/\/+$/, '')}/hubs/notifications`, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Kept in signalRData (persisted with the session, so small and not per event): the connection
 * state and unread chat counts per ticket pushed since sign-in.
 */
const UNREAD_KEPT = 100;

export function startRealtimeRuntime(options: RealtimeRuntimeOptions) {
  const Socket = options.WebSocket ?? WebSocket;
  const win = options.window ?? window;
  const random = options.random ?? Math.random;
  const url = options.url ?? hubUrl('/api', location);
  const reachable = options.reachable ?? answers(healthUrl(url));
  const { session } = options;
  let unread: Record<string, number> = {};
  /** The token already given a second chance after a 4403 (see requestToken). */
  let retriedToken: string | null = null;

  const socket = fromCallback<ClientMessage, SocketInput>(({ input, sendBack, receive }) => {
    const ws = new Socket(url);
    let closed = false;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: input.token, after: input.after } satisfies ClientMessage));
    ws.onmessage = (message) => {
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(message.data)) as ServerFrame;
      } catch {
        return;
      }
      sendBack({ type: 'socket.frame', frame });
    };
    ws.onclose = (event) => {
      if (closed) return;
      closed = true;
      sendBack({ type: 'socket.closed', code: event.code });
    };
    receive((message) => {
      if (ws.readyState === Socket.OPEN) ws.send(JSON.stringify(message));
    });
    return () => {
      closed = true;
      ws.onmessage = ws.onclose = null;
      // Closing a socket that is still connecting makes Chromium log an error: close it once open.
      if (ws.readyState === Socket.CONNECTING) ws.onopen = () => ws.close(1000);
      else {
        ws.onopen = null;
        if (ws.readyState === Socket.OPEN) ws.close(1000);
      }
    };
  });

  const machine = realtimeConnectionMachine.provide({
    actors: { socket },
    delays: { backoff: ({ context }) => backoffDelay(context.attempt, random) },
    actions: {
      connected: (_, { resumed }) => {
        retriedToken = null;
        publishRealtime({ type: 'connected', resumed });
      },
      deliverEvent: (_, { frame }) => {
        noteUnread(frame);
        publishRealtime({ type: 'event', frame });
      },
      resync: () => publishRealtime({ type: 'resync' }),
      permissionsChanged: (_, { permissions }) => options.setPermissions?.(permissions),
      requestToken: (_, { refusedToken, code }) => {
        // After the transition: the answer may be an event for the machine.
        queueMicrotask(() => {
          const current = session.token();
          // The session has moved on (a refresh, a password change here): use its token.
          if (current && current !== refusedToken) return actor.send({ type: 'token.refreshed', token: current });
          // 4403 for the current token may be a race with its re-authentication on the old
          // socket (the hub ended the token it was opened with): one fresh socket tells.
          if (current && code === CloseCodes.sessionEnded && retriedToken !== current) {
            retriedToken = current;
            return actor.send({ type: 'token.refreshed', token: current });
          }
          if (!session.active()) return actor.send({ type: 'session.end' });
          // A session the server has ended fails this refresh and signs out, which ends the connection.
          session.refresh().catch((error: unknown) => console.warn('The realtime connection could not refresh the session', error));
        });
      },
    },
  });

  const actor = createActor(machine);
  const release = registerLiveActor('realtime-connection', realtimeConnectionMachine, actor);

  function noteUnread(frame: EventFrame) {
    if (frame.ticketId === null) return;
    const data = frame.data as { unreadCount?: number; fromUserId?: string };
    const key = String(frame.ticketId);
    if (frame.kind === 'chat.read' && typeof data.unreadCount === 'number') unread = { ...unread, [key]: data.unreadCount };
    else if (frame.kind === 'chat.message' && data.fromUserId !== actor.getSnapshot().context.userId) unread = { ...unread, [key]: (unread[key] ?? 0) + 1 };
    else return;
    const keys = Object.keys(unread);
    if (keys.length > UNREAD_KEPT) unread = Object.fromEntries(keys.slice(-UNREAD_KEPT).map((k) => [k, unread[k]]));
  }

  let lastSummary = '';
  let lastStatus: RealtimeStatus | null = null;
  let probedAttempt = 0;
  actor.subscribe((snapshot) => {
    const status = statusOf(snapshot);
    setRealtimeStatus(status);
    // The app's one offline message (issue 23): the banner while the connection is offline,
    // gone once it is live again (a 401 banner is left alone).
    if (status !== lastStatus) {
      if (status === 'offline') bannerStore.trigger.show({ message: 'network' });
      else if (status === 'live' && lastStatus !== null) bannerStore.trigger.clearIf({ message: 'network' });
      lastStatus = status;
    }
    // The browser is online but the hub keeps refusing: if the server gives no answer at all, the
    // same banner shows while nobody is making calls (issue 23, docs/decisions/0281). Asked once
    // per failed attempt from the second on; the socket going live (or any answered call) clears it.
    const { attempt } = snapshot.context;
    if (status === 'live' || status === 'off' || status === 'offline') probedAttempt = 0;
    else if (attempt >= UNREACHABLE_AFTER_ATTEMPTS && attempt !== probedAttempt) {
      probedAttempt = attempt;
      void reachable().then((answered) => {
        if (!answered && probedAttempt === attempt && lastStatus !== 'live' && lastStatus !== 'off') bannerStore.trigger.show({ message: 'network' });
      });
    }
    setRealtimeUserId(snapshot.context.userId);
    const summary = { connection: status, unread };
    const text = JSON.stringify(summary);
    if (text !== lastSummary) {
      lastSummary = text;
      session.mergeSignalRData(summary);
    }
  });
  actor.start();

  const onOnline = () => actor.send({ type: 'browser.online' });
  const onOffline = () => actor.send({ type: 'browser.offline' });
  win.addEventListener('online', onOnline);
  win.addEventListener('offline', onOffline);

  let token: string | null = null;
  const follow = () => {
    const next = session.token();
    if (next === token) return;
    const previous = token;
    token = next;
    if (next === null) {
      // An expired token is refreshed by the session; only a session that is over closes the socket.
      if (!session.active()) actor.send({ type: 'session.end' });
    } else if (previous === null && actor.getSnapshot().matches('closed')) {
      actor.send({ type: 'session.start', token: next });
      if (win.navigator?.onLine === false) actor.send({ type: 'browser.offline' });
    } else {
      actor.send({ type: 'token.refreshed', token: next });
    }
  };
  const unsubscribe = session.subscribe(() => {
    follow();
    if (!session.active() && !actor.getSnapshot().matches('closed')) actor.send({ type: 'session.end' });
  });
  follow();

  return {
    actor,
    stop() {
      unsubscribe();
      win.removeEventListener('online', onOnline);
      win.removeEventListener('offline', onOffline);
      actor.stop();
      release({ keep: true });
      setRealtimeStatus('off');
    },
  };
}

export function statusOf(snapshot: SnapshotFrom<RealtimeConnectionMachine>): RealtimeStatus {
  if (snapshot.matches('closed')) return 'off';
  if (snapshot.matches('offline')) return 'offline';
  if (snapshot.matches({ online: 'connected' })) return 'live';
  if (snapshot.matches('reconnecting') || snapshot.matches('awaitingToken') || snapshot.context.everConnected) return 'reconnecting';
  return 'connecting';
}
