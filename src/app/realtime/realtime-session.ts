/**
 * What the realtime connection needs from the auth session, so it depends on no particular
 * session code (the adapter is src/app/realtime/auth-session-source.ts). Cheap to build: the
 * first render may hold one.
 */
export interface RealtimeSession {
  /** The current access token; null while signed out or while an expired one is being refreshed. */
  token(): string | null;
  /** Someone is signed in (possibly with an expired token that the next refresh replaces). */
  active(): boolean;
  /** Called on every change of the session. */
  subscribe(listener: () => void): () => void;
  /**
   * The hub refused the token (4401 expired, 4403 session over): get a new one (it arrives
   * through `subscribe`). A session that really ended fails the refresh and signs out.
   */
  refresh(): Promise<unknown>;
  /** Spec §3: pushed data is merged into the auth session's `signalRData`. */
  mergeSignalRData(data: Record<string, unknown>): void;
}
