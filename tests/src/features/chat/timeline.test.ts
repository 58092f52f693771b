import { describe, expect, it } from 'vitest';
import type { ChatEntry } from '#src/features/chat/chat-store.ts';
import { weaveTimeline, type TimelineEvent } from '#src/features/chat/timeline.ts';

const entry = (seq: number | null, createdOn: string): ChatEntry => ({
  messageId: `m${seq ?? 'pending'}`,
  seq,
  fromUserId: 'u',
  fromUserName: 'Ravi Kumar',
  toUserId: null,
  message: `Message ${seq}`,
  createdOn,
  mine: false,
  delivery: seq === null ? 'pending' : 'sent',
  local: 0,
  error: null,
});
const event = (key: string, at: string): TimelineEvent<string> => ({ key, at, item: key });
const shape = (rows: ReturnType<typeof weaveTimeline<string>>) => rows.map((row) => (row.kind === 'message' ? `m${row.entry.seq ?? '?'}` : row.event.key));

describe('weaveTimeline', () => {
  const messages = [entry(1, '2026-11-22T10:05:00Z'), entry(2, '2026-11-22T10:20:00Z'), entry(null, '2026-11-22T10:40:00Z')];
  // Given out of order, as a caller might.
  const events = [event('claimed', '2026-11-22T10:10:00Z'), event('created', '2026-11-22T10:00:00Z'), event('resolved', '2026-11-22T10:30:00Z')];

  it('should put each change of the ticket between the messages at its moment', () => {
    expect(shape(weaveTimeline(messages, events, false))).toEqual(['created', 'm1', 'claimed', 'm2', 'resolved', 'm?']);
  });

  it('should leave out changes older than the oldest loaded message while older messages are still to come', () => {
    expect(shape(weaveTimeline(messages, events, true))).toEqual(['m1', 'claimed', 'm2', 'resolved', 'm?']);
  });

  it('should show the history alone when nobody has written yet, and the chat alone without history', () => {
    expect(shape(weaveTimeline([], events, false))).toEqual(['created', 'claimed', 'resolved']);
    expect(shape(weaveTimeline(messages, [], false))).toEqual(['m1', 'm2', 'm?']);
  });

  it('should put a change at the same moment as a message after it', () => {
    expect(shape(weaveTimeline([entry(1, '2026-11-22T10:05:00Z')], [event('same', '2026-11-22T10:05:00Z')], false))).toEqual(['m1', 'same']);
  });
});
