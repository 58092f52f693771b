import type { PagedQuery } from '#machines/paged-search.machine.ts';
import type {
  BulkAnswer,
  CreateItemBody,
  DuplicateHint,
  EditItemBody,
  ImportJob,
  ItemComment,
  ItemDiff,
  ItemPage,
  ItemRecord,
  ItemVersion,
  ReviewAction,
  ScoreAnswer,
} from '#machines/items/item-records.ts';
import type { ItemResponse } from '#machines/items/item-schema.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { download, upload, type ProgressListener } from '#src/lib/http/transfer.ts';
import { searchBody } from '#src/features/projects/index.ts';

/**
 * Typed calls of the item bank (docs/decisions/0123, shapes in machines/items/item-records.ts).
 * Every call is a project call: the HTTP layer sends the selected project in `ProjectId`
 * (docs/decisions/0097). Screens show their own failures.
 */
const SERVICE = 'itemService' as const;
const items = () => serviceApi(SERVICE);
const projectCall = { showErrors: false, workspace: 'project' } as const;

export interface ItemVersionSummary {
  versionId: number;
  versionNumber: number;
  status: 'draft' | 'inReview' | 'approved' | 'retired' | 'superseded';
  approvedOn: string | null;
  approvedBy: { userId: string; name: string } | null;
  createdBy: { userId: string; name: string } | null;
  createdOn: string;
  languages: string[];
}

export interface CategoryFile {
  fileId: string;
  categoryId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
}

/** The item search body: the paged query plus the list's filters (`languagePresent` travels as text in the URL). */
export function itemSearchBody(query: PagedQuery): Record<string, unknown> {
  const body = searchBody(query);
  const present = body.languagePresent;
  if (present === 'present' || present === 'missing') body.languagePresent = present === 'present';
  else delete body.languagePresent;
  if (body.languagePresent === undefined) delete body.language;
  else if (!body.language) delete body.languagePresent;
  if (body.categoryId !== undefined) body.includeSubcategories = true;
  return body;
}

export const itemsApi = {
  search: (query: PagedQuery) => items().post<ItemPage>('/v1/item/search', itemSearchBody(query), projectCall),
  get: (itemId: number) => items().get<ItemRecord>(`/v1/item/${itemId}`, projectCall),
  create: (body: CreateItemBody) => items().post<ItemRecord>('/v1/item', body, projectCall),
  edit: (itemId: number, body: EditItemBody) => items().put<ItemRecord>(`/v1/item/${itemId}`, body, projectCall),
  versions: (itemId: number) => items().get<ItemVersionSummary[]>(`/v1/item/${itemId}/versions`, projectCall),
  version: (itemId: number, versionNumber: number) => items().get<ItemVersion>(`/v1/item/${itemId}/versions/${versionNumber}`, projectCall),
  diff: (itemId: number, from: number, to: number) => items().get<ItemDiff>(`/v1/item/${itemId}/diff`, { ...projectCall, params: { from, to } }),
  comments: (itemId: number) => items().get<ItemComment[]>(`/v1/item/${itemId}/comments`, projectCall),
  review: (itemId: number, body: { action: ReviewAction; comment?: string; version?: number }) =>
    items().post<{ fromStatus: string; toStatus: string; record: ItemRecord }>(`/v1/item/${itemId}/review`, body, projectCall),
  bulk: (body: { action: 'moveCategory' | 'submit' | 'retire'; itemIds: number[]; categoryId?: number }) =>
    items().post<BulkAnswer>('/v1/item/bulk', body, projectCall),
  duplicatesOfStem: (stem: string, excludeItemId: number | null) =>
    items().post<DuplicateHint[]>('/v1/item/duplicates', { stem, excludeItemId, limit: 5 }, projectCall),
  score: (itemId: number, responses: ItemResponse, versionNumber?: number) =>
    items().post<ScoreAnswer>(`/v1/item/${itemId}/score`, { responses, ...(versionNumber ? { versionNumber } : {}) }, projectCall),

  importFile: (file: File, categoryId: number, language: string | null, onProgress?: ProgressListener) => {
    const form = new FormData();
    form.append('categoryId', String(categoryId));
    if (language) form.append('language', language);
    form.append('file', file, file.name);
    return upload<ImportJob>(SERVICE, { url: '/v1/item/import', form, onProgress, showErrors: false });
  },
  importJobs: () => items().get<ImportJob[]>('/v1/item/import', projectCall),
  importJob: (jobId: string) => items().get<ImportJob>(`/v1/item/import/${encodeURIComponent(jobId)}`, projectCall),
  importErrors: (jobId: string) => download(SERVICE, { url: `/v1/item/import/${encodeURIComponent(jobId)}/errors`, method: 'GET', showErrors: false }),
  template: () => download(SERVICE, { url: '/v1/item/template', method: 'GET', showErrors: false }),
  exportItem: (itemId: number) => download(SERVICE, { url: `/v1/item/${itemId}/export`, method: 'GET', showErrors: false }),
  exportItems: (body: { itemIds: number[] } | { categoryId: number; includeSubcategories?: boolean }) =>
    download(SERVICE, { url: '/v1/item/export', data: body, showErrors: false }),

  categoryFiles: (categoryId: number) => serviceApi('categoryService').get<CategoryFile[]>('/v1/categoryfile', { ...projectCall, params: { categoryId } }),
  categoryFile: (fileId: string) => download('categoryService', { url: `/v1/categoryfile/${encodeURIComponent(fileId)}`, method: 'GET', showErrors: false }),
};
