import type { DeliveryStatus } from '#machines/delivery.machine.ts';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import type { QueuedSave } from '#machines/delivery-autosave.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';

/**
 * The candidate's delivery calls (server/modules/delivery, docs/decisions/0240–0243): global
 * calls of the signed-in candidate. Screens show their own failures.
 */
const api = () => serviceApi('examService');
const global = { showErrors: false, workspace: 'global' } as const;

export interface Timing {
  status: DeliveryStatus;
  serverNow: string;
  startsAt: string;
  deadline: string | null;
  remainingMs: number;
  allowedMs: number;
  extensionMs: number;
  admitted: boolean;
  declared: boolean;
  endedAt: string | null;
}

export interface DeliveryItem {
  number: number;
  versionId: string;
  kind: string;
  marks: number;
  options: string[] | null;
  left: string[] | null;
  right: string[] | null;
  content: ItemContent;
}

export interface Delivery {
  deliveryId: number;
  registrationId: number;
  seasonPaperId: number;
  rollNumber: string | null;
  candidateName: string;
  paper: {
    code: string;
    title: string;
    durationMinutes: number;
    totalMarks: number;
    calculator: boolean;
    navigation: string;
    instructions: Record<string, string>;
  };
  medium: string;
  /** An approved large-print accommodation: the sitting opens at a larger text size. */
  largePrint: boolean;
  languages: string[];
  setLetter: string;
  timing: Timing;
  sections: Array<{ sectionId: string; title: string; instructions: Record<string, string>; items: DeliveryItem[] }>;
  answers: Array<{ itemNumber: number; sequence: number; response: ItemResponse; marked: boolean }>;
  actions: string[];
}

export interface Sitting {
  registrationId: number;
  seasonPaperId: number;
  seasonName: string;
  examName: string;
  paperCode: string;
  paperTitle: string;
  startsAt: string;
  durationMinutes: number;
  deliveryId: number | null;
  status: DeliveryStatus | null;
}

export interface Receipt {
  deliveryId: number;
  status: DeliveryStatus;
  endedAt: string;
  answered: number;
  total: number;
}

export const deliveryApi = {
  sittings: () => api().get<Sitting[]>('/v1/delivery/mine', global),
  open: (registrationId: number, seasonPaperId: number) => api().post<Delivery>('/v1/delivery/mine', { registrationId, seasonPaperId }, global),
  get: (id: number) => api().get<Delivery>(`/v1/delivery/mine/${id}`, global),
  start: (id: number) => api().post<Timing>(`/v1/delivery/mine/${id}/start`, { declaration: true }, global),
  save: (id: number, saves: QueuedSave[]) =>
    api().put<{ results: Array<{ saveId: string; itemNumber: number; applied: boolean; storedSequence: number }>; timing: Timing }>(
      `/v1/delivery/mine/${id}/answers`,
      { saves },
      global,
    ),
  submit: (id: number) => api().post<Receipt>(`/v1/delivery/mine/${id}/submit`, undefined, global),
  receipt: (id: number) => api().get<Receipt>(`/v1/delivery/mine/${id}/receipt`, global),
  telemetry: (id: number, events: Array<{ kind: string }>) => api().post<Timing>(`/v1/delivery/mine/${id}/telemetry`, { events }, global),
};

export interface ConsoleRow {
  deliveryId: number;
  registrationId: number;
  rollNumber: string | null;
  candidateName: string;
  centerId: number | null;
  timing: Timing;
  answered: number;
  lastHeartbeat: string | null;
  alerts: number;
  actions: string[];
}

export type InvigilatorEvent = 'delivery.admit' | 'delivery.pause' | 'delivery.resume' | 'delivery.extend' | 'delivery.terminate';

const project = { showErrors: false, workspace: 'project' } as const;

/** The invigilator's console calls: project calls (ProjectId). */
export const consoleApi = {
  room: (seasonPaperId: number, centerId?: number) =>
    api().get<ConsoleRow[]>(`/v1/delivery?seasonPaperId=${seasonPaperId}${centerId === undefined ? '' : `&centerId=${centerId}`}`, project),
  act: (deliveryId: number, event: InvigilatorEvent, extra: { minutes?: number; reason?: string } = {}) =>
    api().post<ConsoleRow>(`/v1/delivery/${deliveryId}/event`, { event, ...extra }, project),
  verify: (token: string, seasonPaperId: number, centerId?: number) =>
    api().post<ConsoleVerdict>('/v1/delivery/verify', { token: token.trim(), seasonPaperId, ...(centerId === undefined ? {} : { centerId }) }, project),
};

/** The console's admit card check (POST /v1/delivery/verify, docs/decisions/0249). */
export interface ConsoleVerdict {
  verdict: 'valid' | 'forged' | 'revoked' | 'elsewhere';
  message: string;
  candidate: { name: string; rollNumber: string; examName: string; center: string; seatNumber: number } | null;
  registrationId: number | null;
  delivery: ConsoleRow | null;
}

/** A paper sitting's sheet (GET /v1/paper-sitting, docs/decisions/0249). */
export interface PaperSheetRow {
  registrationId: number;
  rollNumber: string | null;
  candidateName: string;
  centerId: number | null;
  attendance: 'AdmitCardIssued' | 'Attended' | 'Absent';
  registrationVersion: number;
  setLetter: string;
  deliveryId: number | null;
  marks: Record<string, number>;
  total: number | null;
  resultStatus: string | null;
}

export interface PaperSheet {
  seasonPaperId: number;
  paperCode: string;
  sets: Record<string, Array<{ number: number; maxMarks: number }>>;
  candidates: PaperSheetRow[];
}

export const paperApi = {
  sheet: (seasonPaperId: number, centerId?: number) =>
    api().get<PaperSheet>(`/v1/paper-sitting?seasonPaperId=${seasonPaperId}${centerId === undefined ? '' : `&centerId=${centerId}`}`, project),
  enter: (seasonPaperId: number, registrationId: number, marks: Array<{ itemNumber: number; marks: number }>) =>
    api().put<PaperSheetRow>('/v1/paper-sitting/marks', { seasonPaperId, registrationId, marks }, project),
};
