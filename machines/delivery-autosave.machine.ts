import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';

/**
 * The candidate screen's autosave queue (issue 19, docs/decisions/0243). Every change of an
 * answer becomes a save with a fresh client id and the next sequence of its question; only the
 * newest save of each question waits. Saves go out together after a short quiet spell (or at
 * once on navigation, `flush`); a failed call leaves them queued, the queue goes offline and
 * retries, and comes back at once when the browser says it is online again. The server's 409
 * (the delivery has ended, or is paused) stops the queue: `ended` is final, `held` waits to be
 * told to resume.
 */
export interface QueuedSave {
  saveId: string;
  itemNumber: number;
  sequence: number;
  response: unknown;
  marked: boolean;
}

export interface AutosaveContext {
  /** The newest save of each question not yet acknowledged, by question number. */
  pending: Record<number, QueuedSave>;
  /** The saves of the call under way. */
  sending: QueuedSave[];
  /** The last sequence given out per question (from the server's answers on load). */
  sequences: Record<number, number>;
  failures: number;
  newId: () => string;
}

export type AutosaveEvent =
  | { type: 'answer'; itemNumber: number; response: unknown; marked: boolean }
  | { type: 'flush' }
  | { type: 'online' }
  | { type: 'offline' }
  | { type: 'resume' };

export interface SaveCallFailure {
  status: number | null;
}

/**
 * What a batch call answers: the save ids the server took, and for a question where another
 * device already stored a higher sequence, that sequence (the next change goes above it).
 */
export interface SaveBatchAnswer {
  acknowledged: string[];
  stored?: Array<{ itemNumber: number; storedSequence: number }>;
}

/**
 * `sequences`: the stored answers' sequences. `queued`: saves this browser had not had
 * acknowledged when the page went away (kept encrypted while offline, decision 0244); they are
 * sent again with their own ids, so a save the server did take answers as before.
 */
export interface AutosaveInput {
  sequences?: Record<number, number>;
  queued?: readonly QueuedSave[];
  newId: () => string;
}

/** The queue a reload starts from: the newest queued save per question, sequences above both. */
export function restoredQueue(input: AutosaveInput): Pick<AutosaveContext, 'pending' | 'sequences'> {
  const sequences = { ...(input.sequences ?? {}) };
  const pending: Record<number, QueuedSave> = {};
  for (const save of input.queued ?? []) {
    if ((pending[save.itemNumber]?.sequence ?? 0) < save.sequence) pending[save.itemNumber] = save;
    sequences[save.itemNumber] = Math.max(sequences[save.itemNumber] ?? 0, save.sequence);
  }
  return { pending, sequences };
}

export const AUTOSAVE_DEBOUNCE_MS = 800;
export const AUTOSAVE_RETRY_MS = 5_000;

export const autosaveMachine = setup({
  types: {
    context: {} as AutosaveContext,
    events: {} as AutosaveEvent,
    input: {} as AutosaveInput,
  },
  actors: {
    saveBatch: fromPromise<SaveBatchAnswer, { saves: QueuedSave[] }>(async () => ({ acknowledged: [] })),
  },
  delays: { debounce: AUTOSAVE_DEBOUNCE_MS, retry: AUTOSAVE_RETRY_MS },
  guards: {
    hasPending: ({ context }) => Object.keys(context.pending).length > 0,
    isRefused: (_, params: { error: unknown }) => (params.error as SaveCallFailure | null)?.status === 409,
  },
  actions: {
    // Wired to `answer` only.
    queue: assign(({ context, event: anyEvent }) => {
      const event = anyEvent as Extract<AutosaveEvent, { type: 'answer' }>;
      const sequence = (context.sequences[event.itemNumber] ?? 0) + 1;
      const save: QueuedSave = { saveId: context.newId(), itemNumber: event.itemNumber, sequence, response: event.response, marked: event.marked };
      return { pending: { ...context.pending, [event.itemNumber]: save }, sequences: { ...context.sequences, [event.itemNumber]: sequence } };
    }),
    takeBatch: assign({ sending: ({ context }) => Object.values(context.pending) }),
    acknowledge: assign(({ context }, params: { answer: SaveBatchAnswer }) => {
      // A question changed again while its save was out keeps its newer save waiting.
      const pending = { ...context.pending };
      // Every sent save came from `pending`, and only this action removes from it: the question is there.
      for (const sent of context.sending) if (pending[sent.itemNumber].saveId === sent.saveId) delete pending[sent.itemNumber];
      const sequences = { ...context.sequences };
      for (const s of params.answer.stored ?? []) sequences[s.itemNumber] = Math.max(sequences[s.itemNumber] ?? 0, s.storedSequence);
      return { pending, sending: [], failures: 0, sequences };
    }),
    failed: assign({ sending: [], failures: ({ context }) => context.failures + 1 }),
  },
}).createMachine({
  id: 'deliveryAutosave',
  context: ({ input }) => ({ ...restoredQueue(input), sending: [], failures: 0, newId: input.newId }),
  initial: 'restoring',
  states: {
    /** Saves kept from before a reload go out first. */
    restoring: { always: [{ guard: 'hasPending', target: 'waiting' }, { target: 'saved' }] },
    saved: { tags: ['saved'], on: { answer: { actions: 'queue', target: 'waiting' } } },
    waiting: {
      tags: ['saving'],
      on: { answer: { actions: 'queue', target: 'waiting', reenter: true }, flush: 'sending' },
      after: { debounce: 'sending' },
    },
    sending: {
      tags: ['saving'],
      entry: 'takeBatch',
      on: { answer: { actions: 'queue' } },
      invoke: {
        id: 'saveBatch',
        src: 'saveBatch',
        input: ({ context }) => ({ saves: context.sending }),
        // The sent saves stay in `pending` until acknowledged, so a batch always ends with some:
        // `next` decides, after the acknowledgement, whether any are left.
        onDone: { actions: { type: 'acknowledge', params: ({ event }) => ({ answer: event.output }) }, target: 'next' },
        onError: [
          { guard: { type: 'isRefused', params: ({ event }) => ({ error: event.error }) }, actions: 'failed', target: 'held' },
          { actions: 'failed', target: 'offline' },
        ],
      },
    },
    /** Acknowledged, with newer changes waiting: decide where to go once the batch is settled. */
    next: { always: [{ guard: 'hasPending', target: 'waiting' }, { target: 'saved' }] },
    offline: {
      tags: ['offline'],
      on: { answer: { actions: 'queue' }, online: 'sending', flush: 'sending' },
      after: { retry: 'sending' },
    },
    /** The server refused (409): paused or ended. The screen reloads the delivery and says `resume` when it runs again. */
    held: {
      tags: ['held'],
      on: { answer: { actions: 'queue' }, resume: [{ guard: 'hasPending', target: 'sending' }, { target: 'saved' }] },
    },
  },
});

export type AutosaveActor = ActorRefFrom<typeof autosaveMachine>;

/** What the indicator says: "saved", "saving", or "offline, N answers waiting". */
export function autosaveStatus(snapshot: { hasTag(tag: string): boolean; context: AutosaveContext }): {
  state: 'saved' | 'saving' | 'offline';
  waiting: number;
} {
  const waiting = Object.keys(snapshot.context.pending).length;
  if (snapshot.hasTag('offline') || snapshot.hasTag('held')) return { state: 'offline', waiting };
  if (snapshot.hasTag('saving')) return { state: 'saving', waiting };
  return { state: 'saved', waiting };
}

/**
 * Time left on screen: the server's deadline read on the server's clock. `offsetMs` is how far
 * the server's clock is ahead of the browser's (serverNow − the browser's time when the answer
 * arrived), so a browser clock that is wrong by minutes still counts down to the right moment.
 */
export function timeLeftOnScreen(deadline: string | null, remainingMs: number, offsetMs: number, browserNow: number): number {
  if (!deadline) return remainingMs;
  return Math.max(0, Date.parse(deadline) - (browserNow + offsetMs));
}

export type PaletteState = 'notVisited' | 'notAnswered' | 'answered' | 'marked' | 'answeredMarked';

export function isAnswered(response: unknown): boolean {
  if (response === null || response === undefined || response === '') return false;
  if (Array.isArray(response)) return response.length > 0;
  if (typeof response === 'object') return Object.values(response as Record<string, unknown>).some((v) => v !== null && v !== '');
  return true;
}

/** The five states of the question palette. */
export function paletteState(visited: boolean, response: unknown, marked: boolean): PaletteState {
  const answered = isAnswered(response);
  if (marked) return answered ? 'answeredMarked' : 'marked';
  if (answered) return 'answered';
  return visited ? 'notAnswered' : 'notVisited';
}
