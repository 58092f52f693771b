import type { ItemContent } from '#machines/items/item-schema.ts';
import type { BlueprintWarning } from '#machines/papers/blueprint.ts';
import type { PaperStatus } from '#machines/papers/paper-flow.machine.ts';
import type { Difficulty, DrawRule } from '#machines/papers/paper-records.ts';
import type { PaperSet } from '#machines/papers/paper-sets.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { download } from '#src/lib/http/transfer.ts';

/**
 * Typed calls of papers, sections and sets (server/modules/papers, docs/decisions/0140, 0142).
 * Every call is a paper call: the HTTP layer sends `ExamId` as `examId`, or `examId&paperId`
 * once a paper is selected (docs/decisions/0093, 0097). Screens show their own failures.
 */
const SERVICE = 'paperService' as const;
const papers = () => serviceApi(SERVICE);
const paperCall = { showErrors: false, workspace: 'paper' } as const;

export type Instructions = Partial<Record<string, string>>;
export type Navigation = 'free' | 'sectional';
export type PaperMode = 'online' | 'offline';
export type PaperEventName = 'paper.submit' | 'paper.requestChanges' | 'paper.lock' | 'paper.unlock' | 'paper.publish';

export interface SectionRecord {
  sectionId: number;
  order: number;
  title: string;
  instructions: Record<string, string>;
  marksPerItem: number;
  attemptAny: number | null;
  timeLimitMinutes: number | null;
  shuffleItems: boolean;
  shuffleOptions: boolean;
  rule: { kind: 'fixed' | 'draw'; items?: number[]; draws?: Array<{ categoryId: number; difficulty: Difficulty; count: number }> };
  itemCount: number;
  marks: number;
  version: number;
}

export interface UserStamp {
  userId: string;
  name: string;
}

export interface PaperRecord {
  paperId: number;
  examId: number;
  code: string;
  title: string;
  durationMinutes: number;
  totalMarks: number;
  instructions: Record<string, string>;
  navigation: Navigation;
  calculator: boolean;
  mode: PaperMode;
  status: PaperStatus;
  lockedAt: string | null;
  lockedBy: UserStamp | null;
  setCount: number;
  sections: SectionRecord[];
  version: number;
  createdAt: string;
  updatedAt: string;
  updatedBy: UserStamp | null;
  /** The paper-flow events the caller may send now (`paper.edit` included). */
  actions: string[];
  /** Whether the caller may see its items, blueprint and sets (its setters, moderators, project admins). */
  contentVisible: boolean;
}

export interface CreatePaperBody {
  code: string;
  title: string;
  durationMinutes: number;
  totalMarks: number;
  instructions?: Instructions;
  navigation?: Navigation;
  calculator?: boolean;
  mode?: PaperMode;
}

export interface SectionBody {
  order?: number;
  title: string;
  instructions?: Instructions;
  marksPerItem: number;
  attemptAny?: number | null;
  timeLimitMinutes?: number | null;
  shuffleItems?: boolean;
  shuffleOptions?: boolean;
  rule: { kind: 'fixed'; items: number[] } | { kind: 'draw'; draws: Array<{ categoryId: number; difficulty: Difficulty; count: number }> };
  version?: number;
}

export interface BlueprintAnswer {
  declaredMarks: number;
  computedMarks: number;
  itemCount: number;
  sections: Array<{
    sectionId: string;
    title: string;
    count: number;
    marks: number;
    cells: Array<{ sectionId: string; categoryId: string | null; difficulty: Difficulty | null; count: number; marks: number }>;
  }>;
  byCategory: Array<{ categoryId: string | null; categoryName: string | null; count: number; marks: number }>;
  byDifficulty: Array<{ difficulty: Difficulty | null; count: number; marks: number }>;
  languages: Array<{ language: string; missing: string[]; drawPoolMissing: number }>;
  warnings: BlueprintWarning[];
  blocking: number;
}

export interface PinnedItem {
  versionId: string;
  itemId: string;
  code: string;
  versionNumber: number;
  categoryId: string | null;
  difficulty: Difficulty | null;
  status: string;
  approved: boolean;
  languages: string[];
  stemText: string;
}

export interface StoredSet {
  letter: string;
  seed: string;
  sha256: string;
  createdAt: string;
  set: PaperSet;
}

export interface Equivalence {
  equivalent: boolean;
  differences: Array<{ cell: string; letter: string; count: number; marks: number; expectedCount: number; expectedMarks: number }>;
}

export interface SetList {
  sets: StoredSet[];
  equivalence: Equivalence;
}

export interface SetComparison {
  letters: string[];
  equivalence: Equivalence;
  rows: Array<{ versionId: string; itemId: string; sectionId: string; positions: Record<string, number | null> }>;
}

export interface SetWithItems {
  set: StoredSet;
  items: Record<string, ItemContent>;
  sections: Array<{ sectionId: string; title: string; instructions: Record<string, string>; attemptAny: number | null; timeLimitMinutes: number | null }>;
}

export interface SetVerification {
  letter: string;
  seed: string;
  identical: boolean;
  sha256: string;
  regeneratedSha256: string;
}

export interface HistoryEntry {
  event: string;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string | null;
  at: string;
  by: UserStamp | null;
}

export type { DrawRule };

export const papersApi = {
  list: () => papers().get<PaperRecord[]>('/v1/paper', paperCall),
  get: (paperId: number) => papers().get<PaperRecord>(`/v1/paper/${paperId}`, paperCall),
  create: (body: CreatePaperBody) => papers().post<PaperRecord>('/v1/paper', body, paperCall),
  edit: (paperId: number, body: Partial<CreatePaperBody> & { version: number }) => papers().put<PaperRecord>(`/v1/paper/${paperId}`, body, paperCall),
  remove: (paperId: number) => papers().delete<{ deleted: boolean }>(`/v1/paper/${paperId}`, paperCall),
  addSection: (paperId: number, body: SectionBody) => papers().post<PaperRecord>(`/v1/paper/${paperId}/section`, body, paperCall),
  editSection: (paperId: number, sectionId: number, body: Partial<SectionBody> & { version: number }) =>
    papers().put<PaperRecord>(`/v1/paper/${paperId}/section/${sectionId}`, body, paperCall),
  reorderSections: (paperId: number, sectionIds: number[], version: number) =>
    papers().put<PaperRecord>(`/v1/paper/${paperId}/sections/order`, { sectionIds, version }, paperCall),
  removeSection: (paperId: number, sectionId: number) => papers().delete<PaperRecord>(`/v1/paper/${paperId}/section/${sectionId}`, paperCall),
  pinnedItems: (paperId: number) => papers().get<PinnedItem[]>(`/v1/paper/${paperId}/items`, paperCall),
  blueprint: (paperId: number) => papers().get<BlueprintAnswer>(`/v1/paper/${paperId}/blueprint`, paperCall),
  transition: (paperId: number, event: PaperEventName, version: number, reason?: string) =>
    papers().post<{ fromStatus: PaperStatus; toStatus: PaperStatus; record: PaperRecord }>(
      `/v1/paper/${paperId}/status`,
      { event, version, ...(reason ? { reason } : {}) },
      paperCall,
    ),
  history: (paperId: number) => papers().get<HistoryEntry[]>(`/v1/paper/${paperId}/history`, paperCall),
  generateSets: (paperId: number, count: number) => papers().post<SetList>(`/v1/paper/${paperId}/sets`, { count }, paperCall),
  sets: (paperId: number) => papers().get<SetList>(`/v1/paper/${paperId}/sets`, paperCall),
  compare: (paperId: number) => papers().get<SetComparison>(`/v1/paper/${paperId}/sets/compare`, paperCall),
  set: (paperId: number, letter: string) => papers().get<SetWithItems>(`/v1/paper/${paperId}/sets/${encodeURIComponent(letter)}`, paperCall),
  verify: (paperId: number, letter: string) => papers().get<SetVerification>(`/v1/paper/${paperId}/sets/${encodeURIComponent(letter)}/verify`, paperCall),
  /** The printed set (question paper in one or two languages, or the answer key) as a PDF. */
  pdf: (paperId: number, letter: string, options: { part: 'paper' | 'key'; languages?: string[] }) =>
    download(SERVICE, {
      url: `/v1/paper/${paperId}/sets/${encodeURIComponent(letter)}/pdf`,
      method: 'GET',
      params: { part: options.part, ...(options.languages?.length ? { languages: options.languages.join(',') } : {}) },
      showErrors: false,
    }),
};
