import { describe, expect, it } from 'vitest';
import { destroyClientSession } from '#src/app/auth/auth-session.ts';
import { chatDrafts } from '#src/features/chat/chat-drafts.ts';

const MEERA = '00000000-0000-4000-8000-000000000001';
const RAVI = '00000000-0000-4000-8000-000000000002';

describe('chat drafts', () => {
  it('should keep an unsent message per person and ticket', () => {
    chatDrafts.set(MEERA, 7, 'Half a sentence');
    chatDrafts.set(RAVI, 7, 'Another reply');
    expect(chatDrafts.get(MEERA, 7)).toBe('Half a sentence');
    expect(chatDrafts.get(RAVI, 7)).toBe('Another reply');
    expect(chatDrafts.get(MEERA, 8)).toBe('');
    chatDrafts.set(MEERA, 7, '');
    expect(chatDrafts.get(MEERA, 7)).toBe('');
    chatDrafts.clear();
  });

  it('should forget every draft when the session is destroyed (sign-out, another tab signing out, a refused refresh)', async () => {
    chatDrafts.set(MEERA, 7, 'My phone number is 98450 12345');
    chatDrafts.set(RAVI, 9, 'Draft of someone else');
    expect(chatDrafts.size).toBe(2);
    // The auth session's "destroys the session" action, as the running app wires it.
    await destroyClientSession();
    expect(chatDrafts.size).toBe(0);
    expect(chatDrafts.get(MEERA, 7)).toBe('');
  });
});
