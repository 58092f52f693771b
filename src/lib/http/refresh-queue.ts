/**
 * One token refresh for any number of concurrent 401s (spec §4 "Token refresh"): the first
 * 401 starts it, the others wait for it, and a request whose token is already stale (someone
 * refreshed while it was in flight) is retried with the current token without a new refresh.
 */
export interface RefreshQueue {
  /** The token to retry with, for a request sent with `sentWith` now that it got a 401. */
  tokenForRetry(sentWith: string | null, current: string | null): Promise<string>;
  /** True while a refresh runs. */
  readonly refreshing: boolean;
}

export function createRefreshQueue(refresh: () => Promise<string>): RefreshQueue {
  let inFlight: Promise<string> | null = null;
  return {
    get refreshing() {
      return inFlight !== null;
    },
    tokenForRetry(sentWith, current) {
      if (inFlight) return inFlight;
      if (current && current !== sentWith) return Promise.resolve(current);
      const started = refresh();
      inFlight = started;
      const done = () => {
        if (inFlight === started) inFlight = null;
      };
      started.then(done, done);
      return started;
    },
  };
}
