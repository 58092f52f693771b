import { onSessionEnd } from '#src/app/auth/session-end.ts';

/**
 * Unsent chat messages per person and ticket (issue 23): typing a reply, opening another page and
 * coming back finds the text still there. Kept in memory for the tab's life only — never written
 * to storage (a draft can hold personal details) — keyed by the signed-in user, and forgotten
 * when the session ends (sign-out here or in another tab, a refused refresh), so a shared
 * computer keeps nothing of the last person's unsent words.
 */
const drafts = new Map<string, string>();
const keyOf = (userId: string | null | undefined, ticketId: number) => `${userId ?? ''}|${ticketId}`;

export const chatDrafts = {
  get: (userId: string | null | undefined, ticketId: number): string => drafts.get(keyOf(userId, ticketId)) ?? '',
  set(userId: string | null | undefined, ticketId: number, text: string): void {
    if (text) drafts.set(keyOf(userId, ticketId), text);
    else drafts.delete(keyOf(userId, ticketId));
  },
  /** How many drafts are kept (tests, and nothing else). */
  get size(): number {
    return drafts.size;
  },
  clear(): void {
    drafts.clear();
  },
};

onSessionEnd(() => chatDrafts.clear());
