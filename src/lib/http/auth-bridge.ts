/**
 * How the session plugs into the HTTP layer. The auth-session actor calls
 * `configureHttpAuth(...)` once it exists; until then calls go out without a token and a 401
 * is final. This module does not load axios, so it may be imported from anywhere.
 */
export interface HttpAuth {
  /** The current access token, or null when signed out. Read for every request. */
  getAccessToken(): string | null;
  /**
   * Gets a new access token (POST /tokens/refresh through this layer, marked `anonymous`) and
   * resolves with it once the session holds it. Called at most once at a time: concurrent 401s
   * wait for the same call. Rejects when the session cannot be refreshed.
   */
  refreshSession(): Promise<string>;
  /** The refresh call itself was refused with 401: the session is over (log out). */
  onSessionExpired(): void;
}

let current: HttpAuth | null = null;

/** Plugs the session in (or out, with null). */
export function configureHttpAuth(auth: HttpAuth | null): void {
  current = auth;
}

export function httpAuth(): HttpAuth | null {
  return current;
}
