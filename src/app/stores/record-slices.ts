import {
  categoryFileStore,
  categoryStore,
  deliveryStore,
  flowStore,
  itemTypeStore,
  itemWorkspaceStore,
  paperWorkspaceStore,
  projectTemplateStore,
  resultStore,
  roleStore,
  sectionStore,
  setStore,
  ticketStore,
  userStore,
} from './slices.ts';

/**
 * The selection slices of spec §4 whose records a screen owns: the workspace's set-up records
 * (project templates, categories, category files, flows and item types; docs/decisions/0201),
 * the item open in the editor, the paper open in the builder, its section and set, the role and
 * the user being managed, the ticket open, the delivery being sat and the result open
 * (docs/decisions/0204). Selecting or saving one
 * stores its payload; deleting the held one removes it; a save that fails resets the slice to
 * null (the spec's "a failure while storing"). A payload the store cannot keep also resets it.
 */
const stores = {
  projectTemplate: projectTemplateStore,
  category: categoryStore,
  categoryFile: categoryFileStore,
  flow: flowStore,
  itemType: itemTypeStore,
  itemWorkspace: itemWorkspaceStore,
  paperWorkspace: paperWorkspaceStore,
  section: sectionStore,
  set: setStore,
  role: roleStore,
  user: userStore,
  ticket: ticketStore,
  delivery: deliveryStore,
  result: resultStore,
} as const;
type Held = Record<string, unknown>;
const field = (name: string) => (held: Held) => held[name] ?? null;
/** How each slice names its record: sections and sets are numbered within their paper. */
const idOf: Record<keyof typeof stores, (held: Held) => unknown> = {
  projectTemplate: field('templateId'),
  category: field('categoryId'),
  categoryFile: field('fileId'),
  flow: field('flowId'),
  itemType: field('itemTypeId'),
  itemWorkspace: field('itemId'),
  paperWorkspace: field('paperId'),
  section: (held) => sectionKey(held.paperId, held.sectionId),
  set: (held) => setKey(held.paperId, held.letter),
  role: field('id'),
  user: field('id'),
  ticket: field('ticketId'),
  delivery: field('deliveryId'),
  result: field('resultId'),
};
export const sectionKey = (paperId: unknown, sectionId: unknown) => `${String(paperId)}:${String(sectionId)}`;
export const setKey = (paperId: unknown, letter: unknown) => `${String(paperId)}:${String(letter)}`;

export type RecordSlice = keyof typeof stores;

/** The id of the record a slice holds, or null. */
export function heldRecordId(slice: RecordSlice): unknown {
  const held = stores[slice].getSnapshot().context.selected;
  return held ? idOf[slice](held) : null;
}

/** Selecting (or saving) a record stores its payload. */
export function storeRecord(slice: RecordSlice, record: unknown) {
  if (record && typeof record === 'object') stores[slice].trigger.select({ record: { ...record } as Record<string, unknown> });
}

/** A record was deleted: the slice is cleared when it held that one. */
export function dropRecord(slice: RecordSlice, id: unknown) {
  if (heldRecordId(slice) === id) stores[slice].trigger.remove();
}

/** The selection is taken back (nothing chosen any more). */
export function clearRecord(slice: RecordSlice) {
  stores[slice].trigger.remove();
}

/** Storing a record failed (its save was refused or did not arrive): the slice resets to null. */
export function failRecord(slice: RecordSlice) {
  stores[slice].trigger.failure();
}
