/**
 * Unsent chat messages per person and ticket (issue 23): typing a reply, opening another page and
 * coming back finds the text still there. Kept in memory for the tab's life only — never written
 * to storage (a draft can hold personal details) — and keyed by the signed-in user, so whoever
 * signs in next in the same tab never sees another person's draft.
 */
const drafts = new Map<string, string>();
const keyOf = (userId: string | null | undefined, ticketId: number) => `${userId ?? ''}|${ticketId}`;

export const chatDrafts = {
  get: (userId: string | null | undefined, ticketId: number): string => drafts.get(keyOf(userId, ticketId)) ?? '',
  set(userId: string | null | undefined, ticketId: number, text: string): void {
    if (text) drafts.set(keyOf(userId, ticketId), text);
    else drafts.delete(keyOf(userId, ticketId));
  },
};
