import { assign, fromPromise, setup } from 'xstate';
import { DIFFICULTIES, PAPER_LIMITS, type Difficulty } from './paper-records.ts';

/**
 * The paper builder's section editor (issue 17, docs/decisions/0143): the draft of one section
 * (new or stored), its fixed items in order or its draw rules, what stops a save, and the save
 * itself with the server's refusals sorted into what the setter must do:
 *
 * - `stale`: someone saved the paper or the section first (409 with `currentVersion`): reload;
 * - `locked`: the paper left Draft (409 with `currentStatus`): it is read-only until unlocked;
 * - `invalid`: the server refused the section (400/422, its words shown as they are);
 * - `failed`: anything else (network, 5xx).
 *
 * The view provides `saveSection` (create or edit) and subscribes; the reorder by drag and by
 * keyboard are both `items.move`.
 */

export type RuleKind = 'fixed' | 'draw';

export interface DraftItem {
  /** The pinned item version. */
  versionId: string;
  /** What the list shows: code and stem text (from the bank search or the paper's pinned items). */
  label: string;
}

export interface DraftDraw {
  categoryId: string;
  difficulty: Difficulty;
  count: number;
}

export interface SectionDraft {
  title: string;
  instructions: Record<string, string>;
  marksPerItem: number;
  /** "Attempt any N of M"; null: every item counts. */
  attemptAny: number | null;
  timeLimitMinutes: number | null;
  shuffleItems: boolean;
  shuffleOptions: boolean;
  kind: RuleKind;
  items: DraftItem[];
  draws: DraftDraw[];
}

export type SaveFailure = { kind: 'stale' | 'locked' | 'invalid' | 'failed'; messages: string[] };

export interface SectionBuilderContext {
  /** The stored section's id, null for a new one. */
  sectionId: number | null;
  /** The stored section's version (optimistic edits). */
  version: number | null;
  draft: SectionDraft;
  /** Whether the draft differs from what was loaded or last saved. */
  dirty: boolean;
  failure: SaveFailure | null;
  /** A spoken note of the last reorder (the view's live region). */
  announcement: { kind: 'added' | 'removed' | 'moved'; label: string; position: number; of: number } | null;
}

export interface SaveSectionRequest {
  sectionId: number | null;
  version: number | null;
  draft: SectionDraft;
}

export interface SectionBuilderInput {
  sectionId?: number | null;
  version?: number | null;
  draft?: Partial<SectionDraft>;
}

export type SectionBuilderEvent =
  | { type: 'field.set'; field: 'title' | 'marksPerItem' | 'attemptAny' | 'timeLimitMinutes' | 'shuffleItems' | 'shuffleOptions'; value: unknown }
  | { type: 'instructions.set'; language: string; text: string }
  | { type: 'rule.kind'; kind: RuleKind }
  | { type: 'items.add'; item: DraftItem }
  | { type: 'items.remove'; versionId: string }
  | { type: 'items.move'; from: number; to: number }
  | { type: 'draws.add'; draw: DraftDraw }
  | { type: 'draws.count'; index: number; count: number }
  | { type: 'draws.remove'; index: number }
  | { type: 'save' }
  | { type: 'failure.dismiss' };

export type SectionProblem =
  | 'titleMissing'
  | 'marksInvalid'
  | 'noItems'
  | 'tooManyItems'
  | 'attemptAnyInvalid'
  | 'attemptAnyTooLarge'
  | 'timeLimitInvalid'
  | 'drawCountInvalid'
  | 'drawTwice';

export const emptySection = (): SectionDraft => ({
  title: '',
  instructions: {},
  marksPerItem: 1,
  attemptAny: null,
  timeLimitMinutes: null,
  shuffleItems: true,
  shuffleOptions: true,
  kind: 'fixed',
  items: [],
  draws: [],
});

/** The number of items the draft puts in each set. */
export function draftItemCount(draft: Pick<SectionDraft, 'kind' | 'items' | 'draws'>): number {
  return draft.kind === 'fixed' ? draft.items.length : draft.draws.reduce((sum, d) => sum + d.count, 0);
}

/** What stops the draft from being saved (the server refuses the same, docs/decisions/0140). */
export function sectionProblems(draft: SectionDraft): SectionProblem[] {
  const problems: SectionProblem[] = [];
  const count = draftItemCount(draft);
  if (draft.title.trim() === '') problems.push('titleMissing');
  if (!Number.isFinite(draft.marksPerItem) || draft.marksPerItem <= 0 || draft.marksPerItem > 100_000) problems.push('marksInvalid');
  if (count === 0) problems.push('noItems');
  if (count > PAPER_LIMITS.itemsPerSection) problems.push('tooManyItems');
  if (draft.attemptAny !== null) {
    if (!Number.isInteger(draft.attemptAny) || draft.attemptAny < 1) problems.push('attemptAnyInvalid');
    else if (count > 0 && draft.attemptAny > count) problems.push('attemptAnyTooLarge');
  }
  if (draft.timeLimitMinutes !== null && (!Number.isInteger(draft.timeLimitMinutes) || draft.timeLimitMinutes < 1 || draft.timeLimitMinutes > 1440))
    problems.push('timeLimitInvalid');
  if (draft.kind === 'draw') {
    if (draft.draws.some((d) => !Number.isInteger(d.count) || d.count < 1)) problems.push('drawCountInvalid');
    const cells = draft.draws.map((d) => `${d.categoryId}|${d.difficulty}`);
    if (new Set(cells).size !== cells.length) problems.push('drawTwice');
  }
  return problems;
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function messagesOf(body: Json): string[] {
  if (Array.isArray(body.messages)) return body.messages.filter((m): m is string => typeof m === 'string');
  if (isRecord(body.errors)) return Object.values(body.errors).flatMap((v) => (Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : []));
  return typeof body.title === 'string' ? [body.title] : [];
}

/** Sorts a refused save (the rejected call's body) into what the setter must do. */
export function classifySaveFailure(error: unknown): SaveFailure {
  if (!isRecord(error)) return { kind: 'failed', messages: [] };
  const status = typeof error.statusCode === 'number' ? error.statusCode : typeof error.status === 'number' ? error.status : null;
  const messages = messagesOf(error);
  if (status === 409) return { kind: 'currentStatus' in error ? 'locked' : 'stale', messages };
  if (status === 400 || status === 422) return { kind: 'invalid', messages };
  return { kind: 'failed', messages };
}

const notProvided = async (): Promise<never> => {
  throw new Error('saveSection must be provided by the view');
};

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

const numberOrNull = (value: unknown): number | null => (value === null || value === '' || value === undefined ? null : Number(value));

export const sectionBuilderMachine = setup({
  types: {
    context: {} as SectionBuilderContext,
    events: {} as SectionBuilderEvent,
    input: {} as SectionBuilderInput,
  },
  actors: {
    saveSection: fromPromise<{ sectionId: number; version: number }, SaveSectionRequest>(notProvided),
  },
  guards: {
    canSave: ({ context }) => sectionProblems(context.draft).length === 0,
    validMove: ({ context, event }) =>
      event.type === 'items.move' &&
      event.from !== event.to &&
      event.from >= 0 &&
      event.to >= 0 &&
      event.from < context.draft.items.length &&
      event.to < context.draft.items.length,
    newItem: ({ context, event }) =>
      event.type === 'items.add' &&
      !context.draft.items.some((i) => i.versionId === event.item.versionId) &&
      context.draft.items.length < PAPER_LIMITS.itemsPerSection,
    newCell: ({ context, event }) =>
      event.type === 'draws.add' &&
      (DIFFICULTIES as readonly string[]).includes(event.draw.difficulty) &&
      !context.draft.draws.some((d) => d.categoryId === event.draw.categoryId && d.difficulty === event.draw.difficulty) &&
      context.draft.draws.length < PAPER_LIMITS.drawsPerSection,
  },
  actions: {
    edited: assign({ dirty: true, failure: null }),
  },
}).createMachine({
  id: 'sectionBuilder',
  context: ({ input }) => ({
    sectionId: input.sectionId ?? null,
    version: input.version ?? null,
    draft: { ...emptySection(), ...input.draft },
    dirty: false,
    failure: null,
    announcement: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.set': {
          actions: [
            assign({
              draft: ({ context, event }) => {
                const value =
                  event.field === 'title'
                    ? String(event.value ?? '')
                    : event.field === 'shuffleItems' || event.field === 'shuffleOptions'
                      ? event.value === true
                      : event.field === 'marksPerItem'
                        ? Number(event.value)
                        : numberOrNull(event.value);
                return { ...context.draft, [event.field]: value };
              },
            }),
            'edited',
          ],
        },
        'instructions.set': {
          actions: [
            assign({
              draft: ({ context, event }) => {
                const instructions = { ...context.draft.instructions };
                if (event.text.trim() === '') delete instructions[event.language];
                else instructions[event.language] = event.text;
                return { ...context.draft, instructions };
              },
            }),
            'edited',
          ],
        },
        'rule.kind': { actions: [assign({ draft: ({ context, event }) => ({ ...context.draft, kind: event.kind }) }), 'edited'] },
        'items.add': {
          guard: 'newItem',
          actions: [
            assign({
              draft: ({ context, event }) => ({ ...context.draft, items: [...context.draft.items, event.item] }),
              announcement: ({ context, event }) => ({
                kind: 'added' as const,
                label: event.item.label,
                position: context.draft.items.length + 1,
                of: context.draft.items.length + 1,
              }),
            }),
            'edited',
          ],
        },
        'items.remove': {
          actions: [
            assign({
              draft: ({ context, event }) => ({ ...context.draft, items: context.draft.items.filter((i) => i.versionId !== event.versionId) }),
              announcement: ({ context, event }) => ({
                kind: 'removed' as const,
                label: context.draft.items.find((i) => i.versionId === event.versionId)?.label ?? '',
                position: 0,
                of: context.draft.items.length - 1,
              }),
            }),
            'edited',
          ],
        },
        'items.move': {
          guard: 'validMove',
          actions: [
            assign({
              draft: ({ context, event }) => ({ ...context.draft, items: moved(context.draft.items, event.from, event.to) }),
              announcement: ({ context, event }) => ({
                kind: 'moved' as const,
                label: context.draft.items[event.from].label,
                position: event.to + 1,
                of: context.draft.items.length,
              }),
            }),
            'edited',
          ],
        },
        'draws.add': {
          guard: 'newCell',
          actions: [assign({ draft: ({ context, event }) => ({ ...context.draft, draws: [...context.draft.draws, event.draw] }) }), 'edited'],
        },
        'draws.count': {
          actions: [
            assign({
              draft: ({ context, event }) => ({
                ...context.draft,
                draws: context.draft.draws.map((d, i) => (i === event.index ? { ...d, count: event.count } : d)),
              }),
            }),
            'edited',
          ],
        },
        'draws.remove': {
          actions: [
            assign({ draft: ({ context, event }) => ({ ...context.draft, draws: context.draft.draws.filter((_, i) => i !== event.index) }) }),
            'edited',
          ],
        },
        'failure.dismiss': { actions: assign({ failure: null }) },
        save: { guard: 'canSave', target: 'saving' },
      },
    },
    saving: {
      invoke: {
        src: 'saveSection',
        input: ({ context }) => ({ sectionId: context.sectionId, version: context.version, draft: context.draft }),
        onDone: {
          target: 'editing',
          actions: assign({
            sectionId: ({ event }) => event.output.sectionId,
            version: ({ event }) => event.output.version,
            dirty: false,
            failure: null,
          }),
        },
        onError: [
          // A locked paper takes no edit at all: the builder turns read-only.
          {
            guard: ({ event }) => classifySaveFailure(event.error).kind === 'locked',
            target: 'readOnly',
            actions: assign({ failure: ({ event }) => classifySaveFailure(event.error) }),
          },
          { target: 'editing', actions: assign({ failure: ({ event }) => classifySaveFailure(event.error) }) },
        ],
      },
    },
    readOnly: {
      on: { 'failure.dismiss': { actions: assign({ failure: null }) } },
    },
  },
});
