import type { EventObject } from 'xstate';
import { createMachineTestModel, transitionCoveringPaths } from '../test-model.ts';
import { blankItem, setText } from './item-draft.ts';
import { itemEditorMachine, type EditorRecord, type ItemEditorContext } from './item-editor.machine.ts';
import type { ItemContent } from './item-schema.ts';

/**
 * The item editor's model (issue 14): what an author and a reviewer do on the editor screen,
 * and how the server answers the load, the save and a review outcome. Events are the ones the
 * screen can send; answers are built from what the editor holds, as the server would give them.
 */
export const EDITOR_MODEL_ITEM_ID = 9;

/** A model event with its payload (content, output, error, action …). */
type ModelEvent = EventObject & Record<string, unknown>;

/** The stem an author types in place of the model item's. */
export const EDITOR_MODEL_NEW_STEM = '<p>Which number is prime?</p>';

/** A valid single-choice item in English: "Which is prime?", A (2) correct. */
export function editorModelContent(): ItemContent {
  let item = blankItem('singleChoice', ['en']);
  item = setText(item, 'en', { stem: '<p>Which is prime?</p>' });
  for (const [id, text] of [
    ['A', '2'],
    ['B', '4'],
    ['C', '6'],
    ['D', '8'],
  ])
    item = setText(item, 'en', { choice: id, html: `<p>${text}</p>` });
  return item;
}

/** The three shapes a stored item takes for the editor: a draft, one in review, an approved one. */
export type EditorRecordKind = 'draft' | 'review' | 'approved';

export function editorModelRecord(kind: EditorRecordKind, overrides: Partial<EditorRecord> = {}): EditorRecord {
  const byKind: Record<EditorRecordKind, Pick<EditorRecord, 'status' | 'editable' | 'editCreatesVersion' | 'actions'>> = {
    draft: { status: 'Draft', editable: true, editCreatesVersion: false, actions: ['submit', 'comment'] },
    review: { status: 'review', editable: false, editCreatesVersion: false, actions: ['approve', 'requestChanges', 'comment'] },
    approved: { status: 'Approved', editable: true, editCreatesVersion: true, actions: ['retire', 'comment'] },
  };
  return {
    itemId: EDITOR_MODEL_ITEM_ID,
    code: `ITM-${EDITOR_MODEL_ITEM_ID}`,
    version: 1,
    versionNumber: 1,
    content: editorModelContent(),
    categoryId: 3,
    difficulty: 'medium',
    ...byKind[kind],
    ...overrides,
  };
}

export function recordKindOf(record: EditorRecord | null): EditorRecordKind | 'none' {
  if (!record) return 'none';
  if (record.editCreatesVersion) return 'approved';
  return record.editable ? 'draft' : 'review';
}

/** The author's edits: a right answer changed (valid), the marks for it set to 0 (invalid), the difficulty. */
export function editorModelEdits(content: ItemContent): ModelEvent[] {
  const correct = (content as { correct?: string }).correct === 'C' ? 'B' : 'C';
  return [
    { type: 'draft.change', content: { ...content, correct } as ItemContent },
    { type: 'draft.change', content: { ...content, marking: { ...content.marking, correct: 0 } } },
    { type: 'draft.meta', difficulty: 'hard' },
  ];
}

const failure = (status: number, extra: object = {}) => ({ status, title: `HTTP ${status}`, ...extra });
const problems = (): object[] => [
  failure(409, { title: 'The item was changed by someone else.' }),
  failure(400, { issues: [{ path: 'content.variants.en.stem', message: 'The stem is too long.' }] }),
  failure(503),
];

/** The server's answer to a save: the draft stored as the next version of the record (a new draft for an approved item). */
export function savedRecord(context: ItemEditorContext): EditorRecord {
  const draft = context.draft!;
  if (!context.record) return editorModelRecord('draft', { content: draft.content, difficulty: draft.difficulty, categoryId: draft.categoryId ?? 3 });
  const next = context.unlocked ? editorModelRecord('draft', { versionNumber: context.record.versionNumber + 1 }) : context.record;
  return { ...next, version: context.record.version + 1, content: draft.content, difficulty: draft.difficulty, categoryId: draft.categoryId ?? 3 };
}

/** The server's answers to a review outcome: the item moved on in its flow, or (a comment) only a new version stamp. */
export function actedRecords(record: EditorRecord): EditorRecord[] {
  const moved: Record<EditorRecordKind, EditorRecordKind> = { draft: 'review', review: 'approved', approved: 'approved' };
  const kind = recordKindOf(record) as EditorRecordKind;
  return [
    editorModelRecord(moved[kind], { version: record.version + 1, versionNumber: record.versionNumber, content: record.content }),
    { ...record, version: record.version + 1 },
  ];
}

function events(snapshot: { value: unknown; context: ItemEditorContext }): ModelEvent[] {
  const { context } = snapshot;
  switch (snapshot.value) {
    case 'loading':
      return [
        ...(['draft', 'review', 'approved'] as const).map((kind) => ({ type: 'xstate.done.actor.load', output: editorModelRecord(kind) })),
        { type: 'xstate.error.actor.load', error: failure(503) },
      ];
    case 'loadFailed':
      return [{ type: 'reload' }];
    case 'saving':
      return [{ type: 'xstate.done.actor.save', output: savedRecord(context) }, ...problems().map((error) => ({ type: 'xstate.error.actor.save', error }))];
    case 'acting':
      return [
        ...actedRecords(context.record!).map((output) => ({ type: 'xstate.done.actor.act', output })),
        ...problems().map((error) => ({ type: 'xstate.error.actor.act', error })),
      ];
    case 'editing':
      return [
        ...editorModelEdits(context.draft!.content),
        // One text field of one language; sent twice, the second time it changes nothing.
        { type: 'draft.text', language: 'en', field: { stem: EDITOR_MODEL_NEW_STEM } },
        { type: 'save' },
        // The screen says what was done, then lets the editor forget it.
        ...(context.notice ? [{ type: 'notice.dismiss' }] : []),
        // A reload is asked for over a conflict ("Load their version"); a new item has no version
        // to load, and the editor keeps its draft.
        ...(context.conflict ? [{ type: 'reload' }] : []),
        ...(context.record
          ? [
              { type: 'action.take', action: 'submit' },
              { type: 'action.take', action: 'approve' },
              { type: 'action.take', action: 'comment', comment: 'Reword B' },
              { type: 'version.start' },
            ]
          : []),
      ];
    default:
      return [];
  }
}

/**
 * A node is the state with what the editor shows: which kind of record, unsaved edits, the next
 * version started, the problem on screen, and whether the draft would pass the check.
 */
function serializeState(snapshot: { value: unknown; context: ItemEditorContext }): string {
  const { context } = snapshot;
  const problem = context.conflict ? 'conflict' : context.issues.length ? 'issues' : context.saveError ? 'error' : 'none';
  const valid = context.draft ? context.draft.content.marking.correct > 0 : true;
  return [JSON.stringify(snapshot.value), recordKindOf(context.record), context.dirty, context.unlocked, problem, valid].join('|');
}

/** An edge by what it means, not its payload: `draft.change(marks 0)`, `xstate.done.actor.save(Draft)`, `xstate.error.actor.act(409)`. */
function serializeEvent(event: EventObject & { content?: ItemContent; output?: EditorRecord; error?: { status: number }; action?: string }): string {
  if (event.type === 'draft.change') return `draft.change(${event.content!.marking.correct > 0 ? 'valid' : 'marks 0'})`;
  if (event.output) return `${event.type}(${event.output.status})`;
  if (event.error) return `${event.type}(${event.error.status})`;
  if (event.action) return `${event.type}(${event.action})`;
  return event.type === 'draft.meta' ? 'draft.meta(difficulty)' : event.type;
}

/** An existing item, opened by id. */
export function itemEditorModel() {
  return createMachineTestModel(itemEditorMachine, {
    events: events as never,
    exhaustive: true,
    input: { itemId: EDITOR_MODEL_ITEM_ID },
    serializeState: serializeState as never,
    serializeEvent: serializeEvent as never,
  });
}

/** A new item of the project (`/items/new?categoryId=3`): it exists once its first save is answered. */
export function newItemEditorModel() {
  return createMachineTestModel(itemEditorMachine, {
    events: events as never,
    exhaustive: true,
    input: { itemId: null, initial: { content: editorModelContent(), categoryId: 3, difficulty: 'medium' } },
    serializeState: serializeState as never,
    serializeEvent: serializeEvent as never,
  });
}

/** Paths taking every edge of both graphs: an item opened, and a new one (created by its first save). */
export function itemEditorTestPaths() {
  return [...transitionCoveringPaths(newItemEditorModel()), ...transitionCoveringPaths(itemEditorModel())];
}
