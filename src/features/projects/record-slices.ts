import { categoryFileStore, categoryStore, exportTemplateStore, flowStore, itemTypeStore, projectTemplateStore } from '#src/app/stores/slices.ts';

/**
 * The selection slices of spec §4 whose records the workspace's set-up screens own (docs/decisions/0201):
 * project templates, categories, category files, flows and item types, and the export
 * templates of their own screen (docs/decisions/0258). Selecting or saving one
 * stores its payload; deleting the held one removes it; a save that fails resets the slice to
 * null (the spec's "a failure while storing"). A payload the store cannot keep also resets it.
 */
const stores = {
  projectTemplate: projectTemplateStore,
  category: categoryStore,
  categoryFile: categoryFileStore,
  flow: flowStore,
  itemType: itemTypeStore,
  exportTemplate: exportTemplateStore,
} as const;
const idFields = {
  projectTemplate: 'templateId',
  category: 'categoryId',
  categoryFile: 'fileId',
  flow: 'flowId',
  itemType: 'itemTypeId',
  exportTemplate: 'exportTemplateId',
} as const;

export type RecordSlice = keyof typeof stores;

/** The id of the record a slice holds, or null. */
export function heldRecordId(slice: RecordSlice): unknown {
  const held = stores[slice].getSnapshot().context.selected;
  return held ? (held[idFields[slice]] ?? null) : null;
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
