/**
 * What must be forgotten when a session ends in this tab — signing out here, in another tab, or a
 * refused refresh — besides the persisted slices: state a feature keeps in memory only (issue 23:
 * unsent chat drafts). A feature registers when its module loads; nothing here imports features.
 */
const listeners = new Set<() => void>();

/** Runs `forget` at every end of a session; returns the unregistration. */
export function onSessionEnd(forget: () => void): () => void {
  listeners.add(forget);
  return () => listeners.delete(forget);
}

/** Called by the auth session's "destroys the session" (spec §4). One failing listener does not stop the others. */
export function endSession(): void {
  for (const forget of [...listeners]) {
    try {
      forget();
    } catch (error) {
      console.error('Forgetting state at sign-out failed', error);
    }
  }
}
