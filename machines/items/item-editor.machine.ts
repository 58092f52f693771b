import { and, assign, fromPromise, setup } from 'xstate';
import type { ErrorActorEvent } from 'xstate';
import type { ItemContent } from './item-schema.ts';
import { setText, type TextField } from './item-draft.ts';
import { checkItemContent, type ItemIssue } from './item-validate.ts';

/**
 * One item on the editor screen (docs/decisions/0127): loads it (or starts a new one), keeps the
 * author's draft, checks it with the server's own `checkItemContent` before saving, saves with
 * the version it was read at, and on a 409 keeps every edit and says someone else saved first.
 * Review outcomes are offered exactly as the server lists them for the caller (`actions`), and an
 * approved item is read-only until the author chooses to edit it: saving then makes the next version
 * (the server's rule, docs/decisions/0123). The view provides `loadItem`, `saveItem`, `performAction`.
 */
/** The part of the server's `ItemRecord` (item-records.ts) the editor works on. */
export interface EditorRecord {
  itemId: number;
  code: string;
  version: number;
  versionNumber: number;
  status: string;
  content: ItemContent;
  /** Review outcomes the compiled flow allows the caller now (server-computed). */
  actions: string[];
  /** A content edit now changes the draft. */
  editable: boolean;
  /** The latest version is approved: a content edit makes the next version (a new draft). */
  editCreatesVersion: boolean;
  categoryId: number;
  difficulty: string;
}

export interface EditorDraft {
  content: ItemContent;
  categoryId: number | null;
  difficulty: string;
}

export interface SaveRequest {
  itemId: number | null;
  version: number | null;
  draft: EditorDraft;
}

export interface ActionRequest {
  itemId: number;
  version: number;
  action: string;
  comment: string;
}

export interface ItemEditorContext {
  itemId: number | null;
  record: EditorRecord | null;
  draft: EditorDraft | null;
  dirty: boolean;
  loadError: unknown;
  /** Problems found before saving (checkItemContent) or answered by the server (400). */
  issues: ItemIssue[];
  saveError: unknown;
  /** Set when a save or an action met a newer version (409): the draft is kept. */
  conflict: unknown;
  /** An approved item the author chose to edit: saving makes the next version. */
  unlocked: boolean;
  /** What the last successful save or action was, for the view's announcement. */
  notice: 'saved' | 'created' | 'versioned' | 'acted' | null;
}

export type ItemEditorEvent =
  | { type: 'draft.change'; content: ItemContent }
  /** One rich field of one language, applied to the current draft (edits arrive one after another). */
  | { type: 'draft.text'; language: string; field: TextField }
  | { type: 'draft.meta'; categoryId?: number | null; difficulty?: string }
  | { type: 'save' }
  | { type: 'reload' }
  | { type: 'action.take'; action: string; comment?: string }
  | { type: 'version.start' }
  | { type: 'notice.dismiss' };

export interface ItemEditorInput {
  itemId: number | null;
  /** For a new item: the content to start from. */
  initial?: EditorDraft;
}

const statusOf = (error: unknown): number | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { statusCode?: unknown; status?: unknown };
  return typeof e.statusCode === 'number' ? e.statusCode : typeof e.status === 'number' ? e.status : undefined;
};

/** Problem details of a 400 as issues: `errors` by path, or the item validator's list. */
export function issuesOf(error: unknown): ItemIssue[] {
  if (typeof error !== 'object' || error === null) return [];
  const e = error as { errors?: unknown; issues?: unknown };
  if (Array.isArray(e.issues)) return e.issues.filter((i): i is ItemIssue => typeof i?.path === 'string' && typeof i?.message === 'string');
  if (e.errors && typeof e.errors === 'object')
    return Object.entries(e.errors as Record<string, unknown>).flatMap(([path, messages]) =>
      (Array.isArray(messages) ? messages : [messages]).map((message) => ({ path, message: String(message) })),
    );
  return [];
}

const draftOf = (record: EditorRecord): EditorDraft => ({ content: record.content, categoryId: record.categoryId, difficulty: record.difficulty });

/** The context once the server answered `record`: the draft starts again from it. */
const storedRecord = (context: ItemEditorContext, record: EditorRecord): Partial<ItemEditorContext> => ({
  notice: context.record && record.versionNumber > context.record.versionNumber ? 'versioned' : context.notice,
  unlocked: false,
  record,
  itemId: record.itemId,
  draft: draftOf(record),
  dirty: false,
  loadError: null,
  saveError: null,
  issues: [],
  conflict: null,
});

const notProvided = (name: string) => async (): Promise<never> => {
  throw new Error(`${name} must be provided by the view`);
};

export const itemEditorMachine = setup({
  types: {
    context: {} as ItemEditorContext,
    events: {} as ItemEditorEvent,
    input: {} as ItemEditorInput,
  },
  actors: {
    loadItem: fromPromise<EditorRecord, { itemId: number }>(notProvided('loadItem')),
    saveItem: fromPromise<EditorRecord, SaveRequest>(notProvided('saveItem')),
    performAction: fromPromise<EditorRecord, ActionRequest>(notProvided('performAction')),
  },
  guards: {
    isNew: ({ context }) => context.itemId === null,
    isStored: ({ context }) => context.record !== null,
    // An approved item's content changes only once the author chose to start the next version.
    canEdit: ({ context }) => context.record === null || (context.record.editCreatesVersion ? context.unlocked : context.record.editable),
    isConflict: (_, error: unknown) => statusOf(error) === 409,
    isInvalid: (_, error: unknown) => statusOf(error) === 400 && issuesOf(error).length > 0,
    // Unsaved edits are saved first (a comment needs no save): the reviewer acts on what is stored.
    isAllowedAction: ({ context, event }) =>
      event.type === 'action.take' &&
      context.record !== null &&
      context.record.actions.includes(event.action) &&
      (!context.dirty || event.action === 'comment'),
    canVersion: ({ context }) => context.record !== null && context.record.editCreatesVersion && !context.unlocked,
    // A stored item is saved only with something to save (a new one always: saving creates it).
    hasChanges: ({ context }) => context.record === null || context.dirty,
    passesCheck: ({ context }) => context.draft !== null && checkItemContent(context.draft.content).length === 0,
  },
  actions: {
    /**
     * The record a review outcome answered. A comment may be taken with unsaved edits; they stay
     * the author's draft (still unsaved, still unlocked for the next version), over the new record.
     */
    storeActedRecord: assign(({ context }, record: EditorRecord) =>
      context.dirty
        ? { ...storedRecord(context, record), draft: context.draft, dirty: true, unlocked: context.unlocked && record.editCreatesVersion }
        : storedRecord(context, record),
    ),
    storeRecord: assign(({ context }, record: EditorRecord) => storedRecord(context, record)),
    changeContent: assign(({ context, event }) =>
      event.type === 'draft.change' && context.draft ? { draft: { ...context.draft, content: event.content }, dirty: true, notice: null } : {},
    ),
    changeText: assign(({ context, event }) => {
      if (event.type !== 'draft.text' || !context.draft) return {};
      const content = setText(context.draft.content, event.language, event.field);
      // The same text again (an editor normalizing what it was given) is no change.
      if (JSON.stringify(content.variants[event.language]) === JSON.stringify(context.draft.content.variants[event.language])) return {};
      return { draft: { ...context.draft, content }, dirty: true, notice: null };
    }),
    changeMeta: assign(({ context, event }) => {
      if (event.type !== 'draft.meta' || !context.draft) return {};
      const draft = { ...context.draft };
      if (event.categoryId !== undefined) draft.categoryId = event.categoryId;
      if (event.difficulty !== undefined) draft.difficulty = event.difficulty;
      return { draft, dirty: true, notice: null };
    }),
    checkDraft: assign({ issues: ({ context }) => (context.draft ? checkItemContent(context.draft.content) : []) }),
    clearProblems: assign({ issues: [], saveError: null, conflict: null, loadError: null }),
    unlock: assign({ unlocked: true, notice: null }),
    storeLoadError: assign({ loadError: (_, error: unknown) => error }),
    storeIssues: assign({ issues: (_, error: unknown) => issuesOf(error), saveError: null }),
    storeConflict: assign({ conflict: (_, error: unknown) => error ?? true, saveError: null }),
    // A failure with no reason attached is still a failure the author must see.
    storeSaveError: assign({ saveError: (_, error: unknown) => error ?? true }),
    noteSaved: assign({ notice: ({ context }) => (context.itemId === null ? 'created' : 'saved') as ItemEditorContext['notice'] }),
    noteActed: assign({ notice: 'acted' as const }),
    dismissNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'itemEditor',
  context: ({ input }) => ({
    itemId: input.itemId,
    record: null,
    draft: input.initial ?? null,
    dirty: false,
    loadError: null,
    issues: [],
    saveError: null,
    conflict: null,
    unlocked: false,
    notice: null,
  }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'isNew', target: 'editing' }, { target: 'loading' }] },
    loading: {
      entry: 'clearProblems',
      invoke: {
        id: 'load',
        src: 'loadItem',
        input: ({ context }) => ({ itemId: context.itemId as number }),
        onDone: { target: 'editing', actions: { type: 'storeRecord', params: ({ event }) => event.output } },
        onError: { target: 'loadFailed', actions: { type: 'storeLoadError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
      },
    },
    loadFailed: { on: { reload: 'loading' } },
    editing: {
      on: {
        'draft.change': { guard: 'canEdit', actions: 'changeContent' },
        'draft.text': { guard: 'canEdit', actions: 'changeText' },
        'draft.meta': { guard: 'canEdit', actions: 'changeMeta' },
        // The draft is checked with the server's own rules before it is sent: a draft that fails
        // stays here with its problems listed, and nothing goes to the server.
        save: [
          { guard: and(['canEdit', 'hasChanges', 'passesCheck']), target: 'saving', actions: 'clearProblems' },
          { guard: and(['canEdit', 'hasChanges']), actions: ['clearProblems', 'checkDraft'] },
        ],
        // Only a stored item has a version to load again; a new one keeps its draft and saves again.
        reload: { guard: 'isStored', target: 'loading' },
        'action.take': { guard: 'isAllowedAction', target: 'acting' },
        'version.start': { guard: 'canVersion', actions: 'unlock' },
        'notice.dismiss': { actions: 'dismissNotice' },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'saveItem',
        input: ({ context }) => ({ itemId: context.itemId, version: context.record?.version ?? null, draft: context.draft as EditorDraft }),
        onDone: { target: 'editing', actions: [{ type: 'noteSaved' }, { type: 'storeRecord', params: ({ event }) => event.output }] },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'editing',
            actions: { type: 'storeConflict', params: ({ event }: { event: ErrorActorEvent }) => event.error },
          },
          {
            guard: { type: 'isInvalid', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'editing',
            actions: { type: 'storeIssues', params: ({ event }: { event: ErrorActorEvent }) => event.error },
          },
          { target: 'editing', actions: { type: 'storeSaveError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
        ],
      },
    },
    acting: {
      entry: 'clearProblems',
      invoke: {
        id: 'act',
        src: 'performAction',
        input: ({ context, event }) => ({
          itemId: context.itemId as number,
          version: context.record?.version as number,
          action: event.type === 'action.take' ? event.action : '',
          comment: event.type === 'action.take' ? (event.comment ?? '') : '',
        }),
        onDone: { target: 'editing', actions: [{ type: 'storeActedRecord', params: ({ event }) => event.output }, 'noteActed'] },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'editing',
            actions: { type: 'storeConflict', params: ({ event }: { event: ErrorActorEvent }) => event.error },
          },
          {
            guard: { type: 'isInvalid', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'editing',
            actions: { type: 'storeIssues', params: ({ event }: { event: ErrorActorEvent }) => event.error },
          },
          { target: 'editing', actions: { type: 'storeSaveError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
        ],
      },
    },
  },
});
