import type { PagedQuery, PagedResult } from '#machines/paged-search.machine.ts';
import type { RegistrationStatus } from '#machines/exams/registration.machine.ts';
import type { SeasonStatus } from '#machines/exams/season.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { download, upload, type ProgressListener } from '#src/lib/http/transfer.ts';

/**
 * Typed calls of exam centers, seasons, registrations and admit cards (server/modules/seasons,
 * docs/decisions/0150–0154, 0230–0235). Centers and the candidate's own calls are global;
 * seasons and the administration of registrations are project calls (ProjectId). Screens show
 * their own failures.
 */
const centers = () => serviceApi('centerService');
const seasons = () => serviceApi('examService');
const registrations = () => serviceApi('registrationService');
const global = { showErrors: false, workspace: 'global' } as const;
const project = { showErrors: false, workspace: 'project' } as const;

export interface UserStamp {
  userId: string;
  name: string;
}

export interface Center {
  centerId: number;
  code: string;
  name: string;
  address: string;
  city: string;
  state: string;
  capacity: number;
  cbtCapable: boolean;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  isActive: boolean;
  version: number;
  createdOn: string;
  updatedOn: string;
  updatedBy: UserStamp | null;
}

export type CenterBody = Omit<Center, 'centerId' | 'version' | 'createdOn' | 'updatedOn' | 'updatedBy'>;

export interface CenterImport {
  importId: number;
  fileName: string;
  totalRows: number;
  createdCount: number;
  failedCount: number;
  hasErrorFile: boolean;
  errors: Array<{ rowNumber: number; reason: string }>;
}

export interface Season {
  seasonId: number;
  projectId: number;
  code: string;
  name: string;
  startsOn: string;
  endsOn: string;
  registrationOpensAt: string;
  registrationClosesAt: string;
  rollPattern: string;
  status: SeasonStatus;
  paperCount: number;
  centerCount: number;
  seats: number;
  allocated: number;
  version: number;
  createdOn: string;
  updatedOn: string;
  updatedBy: UserStamp | null;
  actions: string[];
  canConfigure: boolean;
}

export interface SeasonBody {
  code: string;
  name: string;
  startsOn: string;
  endsOn: string;
  registrationOpensAt: string;
  registrationClosesAt: string;
  rollPattern?: string;
}

export type SetAssignment = 'randomPerCandidate' | 'perCenter';
export type PaperMode = 'online' | 'offline';

export interface SeasonPaper {
  seasonPaperId: number;
  seasonId: number;
  paperId: number;
  paperCode: string;
  paperTitle: string;
  paperStatus: string;
  examId: number;
  examName: string;
  sitsOn: string;
  startsAt: string;
  endsAt: string;
  durationMinutes: number;
  mode: PaperMode;
  setAssignment: SetAssignment;
  candidateGroup: string;
  liveSets: string[];
  availableSets: string[];
  sections: Array<{ sectionId: number; title: string; position: number; paperTimeLimitMinutes: number | null; timeLimitMinutes: number | null; note: string }>;
  version: number;
}

export interface Clash {
  candidateGroup: string;
  sitsOn: string;
  seasonPaperIds: [number, number];
  message: string;
}

export interface Schedule {
  seasonId: number;
  papers: SeasonPaper[];
  clashes: Clash[];
}

export interface SeasonPaperBody {
  paperId?: number;
  sitsOn?: string;
  startsAt?: string;
  durationMinutes?: number;
  mode?: PaperMode;
  setAssignment?: SetAssignment;
  candidateGroup?: string | null;
  version?: number;
}

export interface SeasonCenter {
  seasonId: number;
  centerId: number;
  code: string;
  name: string;
  city: string;
  state: string;
  address: string;
  capacity: number;
  cbtCapable: boolean;
  isActive: boolean;
  seats: number;
  allocated: number;
  version: number;
}

export interface Accommodations {
  extraTimePercent?: number;
  scribe?: boolean;
  largePrint?: boolean;
}

export type AccommodationStatus = 'none' | 'requested' | 'approved' | 'rejected';

export interface Registration {
  registrationId: number;
  projectId: number;
  seasonId: number;
  seasonName: string;
  examId: number;
  examName: string;
  candidate: { userId: string; name: string; email: string };
  papers: Array<{ seasonPaperId: number; paperCode: string; paperTitle: string; sitsOn: string; startsAt: string }>;
  medium: string;
  preferredCity: string;
  accommodations: Accommodations;
  accommodationStatus: AccommodationStatus;
  status: RegistrationStatus;
  reason: string | null;
  center: { centerId: number; code: string; name: string; city: string; address: string } | null;
  seatNumber: number | null;
  rollNumber: string | null;
  document: { fileName: string; sizeBytes: number } | null;
  admitCardIssuedAt: string | null;
  version: number;
  createdOn: string;
  updatedOn: string;
  actions: string[];
}

export interface OpenSeason {
  seasonId: number;
  projectId: number;
  projectName: string;
  code: string;
  name: string;
  startsOn: string;
  endsOn: string;
  registrationOpensAt: string;
  registrationClosesAt: string;
  languages: string[];
  cities: string[];
  exams: Array<{
    examId: number;
    code: string;
    name: string;
    papers: Array<{ seasonPaperId: number; paperCode: string; paperTitle: string; sitsOn: string; startsAt: string; durationMinutes: number; mode: string }>;
  }>;
}

export interface RegistrationBody {
  seasonId: number;
  examId: number;
  seasonPaperIds: number[];
  medium: string;
  preferredCity: string;
  accommodations?: Accommodations;
}

export interface AdmitCard {
  registrationId: number;
  rollNumber: string;
  candidateName: string;
  examName: string;
  seasonName: string;
  medium: string;
  papers: Registration['papers'];
  center: { name: string; address: string; city: string };
  seatNumber: number;
  issuedAt: string;
  token: string;
}

export interface AdmitVerdict {
  verdict: 'valid' | 'forged' | 'revoked';
  message: string;
  candidate: { name: string; rollNumber: string; examName: string; center: string; seatNumber: number; papers: Registration['papers'] } | null;
}

export interface AdmitBatch {
  batchId: number;
  seasonId: number;
  centerId: number | null;
  state: string;
  message: string | null;
  total: number;
  issued: number;
  failed: number;
  elapsedMs: number;
  cardsPerSecond: number | null;
  createdOn: string;
  finishedOn: string | null;
}

export interface RegistrationUpload {
  jobId: number;
  seasonId: number;
  fileName: string;
  state: string;
  message: string | null;
  approve: boolean;
  totalRows: number;
  processedRows: number;
  createdCount: number;
  failedCount: number;
  hasErrorFile: boolean;
  createdOn: string;
  finishedOn: string | null;
}

export type RegistrationEventName =
  | 'registration.approve'
  | 'registration.reject'
  | 'registration.issueAdmitCard'
  | 'registration.markAttended'
  | 'registration.markAbsent'
  | 'registration.cancel';

const searchBody = (query: PagedQuery) => ({
  keyword: query.keyword.trim() || null,
  pageNumber: query.pageNumber,
  pageSize: query.pageSize,
  orderBy: query.orderBy,
});

/**
 * A search body without the filters left empty: the server coerces types (ajv `coerceTypes`),
 * and a `null` sent for a boolean-or-null filter would arrive as `false` — "inactive only".
 */
const compact = <T extends Record<string, unknown>>(body: T): Partial<T> =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null && value !== undefined)) as Partial<T>;

/** A filter value from the URL: '' and null mean "any". */
const filterValue = (value: unknown) => (value === '' || value === undefined || value === null ? null : value);
const boolFilter = (value: unknown) => (value === 'true' ? true : value === 'false' ? false : null);
const numberFilter = (value: unknown) => {
  const n = Number(value);
  return value === '' || value === null || value === undefined || !Number.isFinite(n) ? null : n;
};

export const centersApi = {
  search: (query: PagedQuery) =>
    centers().post<PagedResult<Center>>(
      '/v1/examcenter/search',
      compact({
        ...searchBody(query),
        city: filterValue(query.filters.city),
        state: filterValue(query.filters.state),
        cbtCapable: boolFilter(query.filters.cbtCapable),
        isActive: boolFilter(query.filters.isActive),
        minCapacity: numberFilter(query.filters.minCapacity),
      }),
      global,
    ),
  /** Active centers (for giving seats), the first 100 by city and name. */
  active: (keyword = '') =>
    centers().post<PagedResult<Center>>('/v1/examcenter/search', { keyword: keyword.trim() || null, isActive: true, pageNumber: 1, pageSize: 100 }, global),
  create: (body: CenterBody) => centers().post<Center>('/v1/examcenter', body, global),
  edit: (centerId: number, body: Partial<CenterBody> & { version: number }) => centers().put<Center>(`/v1/examcenter/${centerId}`, body, global),
  template: (onProgress?: ProgressListener) => download('centerService', { url: '/v1/examcenter/template', method: 'POST', onProgress, showErrors: false }),
  import: (file: File, onProgress?: ProgressListener) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<CenterImport>('centerService', { url: '/v1/examcenter/import', form, onProgress, showErrors: false });
  },
  errorFile: (importId: number, onProgress?: ProgressListener) =>
    download('centerService', { url: `/v1/examcenter/import/${importId}/errorfile`, method: 'POST', onProgress, showErrors: false }),
};

export const seasonsApi = {
  search: (query: PagedQuery) =>
    seasons().post<PagedResult<Season>>('/v1/season/search', compact({ ...searchBody(query), status: filterValue(query.filters.status) }), project),
  all: () => seasons().post<PagedResult<Season>>('/v1/season/search', { pageNumber: 1, pageSize: 100, orderBy: ['startsOn desc'] }, project),
  get: (seasonId: number) => seasons().get<Season>(`/v1/season/${seasonId}`, project),
  create: (body: SeasonBody) => seasons().post<Season>('/v1/season', body, project),
  edit: (seasonId: number, body: Partial<SeasonBody> & { version: number }) => seasons().put<Season>(`/v1/season/${seasonId}`, body, project),
  transition: (seasonId: number, event: string, version: number, reason?: string) =>
    seasons().post<{ fromStatus: string; toStatus: string; record: Season }>(
      `/v1/season/${seasonId}/status`,
      { event, version, ...(reason ? { reason } : {}) },
      project,
    ),
  schedule: (seasonId: number) => seasons().get<Schedule>(`/v1/season/${seasonId}/schedule`, project),
  addPaper: (seasonId: number, body: SeasonPaperBody) =>
    seasons().post<{ record: SeasonPaper; clashes: Clash[] }>(`/v1/season/${seasonId}/paper`, body, project),
  editPaper: (seasonId: number, seasonPaperId: number, body: SeasonPaperBody) =>
    seasons().put<{ record: SeasonPaper; clashes: Clash[] }>(`/v1/season/${seasonId}/paper/${seasonPaperId}`, body, project),
  removePaper: (seasonId: number, seasonPaperId: number) => seasons().delete<{ deleted: boolean }>(`/v1/season/${seasonId}/paper/${seasonPaperId}`, project),
  liveSets: (seasonId: number, seasonPaperId: number, letters: string[], version: number) =>
    seasons().put<{ record: SeasonPaper; clashes: Clash[] }>(`/v1/season/${seasonId}/paper/${seasonPaperId}/sets`, { letters, version }, project),
  sections: (seasonId: number, seasonPaperId: number, sections: Array<{ sectionId: number; timeLimitMinutes: number | null; note: string }>, version: number) =>
    seasons().put<{ record: SeasonPaper; clashes: Clash[] }>(`/v1/season/${seasonId}/paper/${seasonPaperId}/sections`, { sections, version }, project),
  centers: (seasonId: number) => seasons().get<SeasonCenter[]>(`/v1/season/${seasonId}/centers`, project),
  giveSeats: (seasonId: number, centerId: number, seats: number, version?: number) =>
    seasons().put<SeasonCenter>(`/v1/season/${seasonId}/center`, { centerId, seats, ...(version ? { version } : {}) }, project),
  removeCenter: (seasonId: number, centerId: number) => seasons().delete<{ deleted: boolean }>(`/v1/season/${seasonId}/center/${centerId}`, project),
  allocateAll: (seasonId: number) =>
    seasons().post<{ allocated: number; unplaced: number; elapsedMs: number }>(`/v1/season/${seasonId}/allocate`, undefined, project),
  issueAdmitCards: (seasonId: number, centerId: number | null = null) =>
    seasons().post<AdmitBatch>(`/v1/season/${seasonId}/admitcards`, centerId ? { centerId } : {}, project),
  batches: (seasonId: number) => seasons().get<AdmitBatch[]>(`/v1/season/${seasonId}/admitcards`, project),
  rollPattern: () => seasons().get<{ rollPattern: string; example: string }>('/v1/season/rollpattern', project),
  setRollPattern: (rollPattern: string) => seasons().put<{ rollPattern: string; example: string }>('/v1/season/rollpattern', { rollPattern }, project),
};

export const registrationsApi = {
  // -- the candidate's own (global calls) --
  open: () => registrations().get<OpenSeason[]>('/v1/registration/open', global),
  register: (body: RegistrationBody) => registrations().post<Registration>('/v1/registration', body, global),
  mine: () => registrations().get<Registration[]>('/v1/registration/mine', global),
  cancelMine: (id: number, reason: string) => registrations().post<{ record: Registration }>(`/v1/registration/mine/${id}/cancel`, { reason }, global),
  admitCard: (id: number) => registrations().get<AdmitCard>(`/v1/registration/mine/${id}/admitcard`, global),
  admitCardPdf: (id: number, onProgress?: ProgressListener) =>
    download('registrationService', { url: `/v1/registration/mine/${id}/admitcard/pdf`, method: 'GET', onProgress, showErrors: false }),
  uploadDocument: (id: number, file: File, onProgress?: ProgressListener) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<{ fileName: string; sizeBytes: number }>('registrationService', {
      url: `/v1/registration/mine/${id}/document`,
      form,
      onProgress,
      showErrors: false,
    });
  },
  verify: (token: string) => registrations().post<AdmitVerdict>('/v1/admitcard/verify', { token: token.trim() }, global),

  // -- administration (project calls) --
  search: (query: PagedQuery) =>
    registrations().post<PagedResult<Registration>>(
      '/v1/registration/search',
      compact({
        ...searchBody(query),
        seasonId: numberFilter(query.filters.seasonId),
        examId: numberFilter(query.filters.examId),
        status: filterValue(query.filters.status),
        centerId: numberFilter(query.filters.centerId),
        accommodationStatus: filterValue(query.filters.accommodationStatus),
      }),
      project,
    ),
  transition: (id: number, event: RegistrationEventName, version: number, reason?: string) =>
    registrations().post<{ record: Registration }>(`/v1/registration/${id}/status`, { event, version, ...(reason ? { reason } : {}) }, project),
  allocate: (id: number, centerId: number | null = null) =>
    registrations().post<{ record: Registration }>(`/v1/registration/${id}/allocate`, centerId ? { centerId } : {}, project),
  move: (id: number, centerId: number) => registrations().post<{ record: Registration }>(`/v1/registration/${id}/move`, { centerId }, project),
  accommodations: (id: number, decision: 'approved' | 'rejected') =>
    registrations().post<Registration>(`/v1/registration/${id}/accommodations`, { decision }, project),
  document: (id: number) => download('registrationService', { url: `/v1/registration/${id}/document`, method: 'GET', showErrors: false }),
  staffAdmitCardPdf: (id: number) => download('registrationService', { url: `/v1/registration/${id}/admitcard/pdf`, method: 'GET', showErrors: false }),
  uploadTemplate: (onProgress?: ProgressListener) =>
    download('registrationService', { url: '/v1/registration/upload/template', method: 'POST', onProgress, showErrors: false }),
  bulkUpload: (seasonId: number, approve: boolean, file: File, onProgress?: ProgressListener) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<{ jobId: number; fileName: string; state: string; message: string }>('registrationService', {
      url: `/v1/registration/upload?seasonId=${seasonId}${approve ? '&approve=true' : ''}`,
      form,
      onProgress,
      showErrors: false,
    });
  },
  uploads: (seasonId: number | null) =>
    registrations().post<PagedResult<RegistrationUpload>>('/v1/registration/upload/search', { seasonId, pageNumber: 1, pageSize: 10 }, project),
  uploadErrors: (jobId: number, onProgress?: ProgressListener) =>
    download('registrationService', { url: `/v1/registration/upload/${jobId}/errorfile`, method: 'POST', onProgress, showErrors: false }),
};
