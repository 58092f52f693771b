import type { PaperStatus } from '#machines/papers/paper-flow.machine.ts';

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a refused paper call means for the screen (docs/decisions/0144): its status, its messages,
 * and for a 409 whether the paper moved on (`locked`: it left Draft, `currentStatus`) or was saved
 * by someone else first (`stale`: `currentVersion`). A download's error body arrives as a Blob.
 */
export interface PaperCallFailure {
  status: number | null;
  messages: string[];
  conflict: 'locked' | 'stale' | null;
  currentStatus: PaperStatus | null;
}

export async function paperCallFailure(error: unknown): Promise<PaperCallFailure> {
  let body: unknown = error;
  if (typeof Blob !== 'undefined' && error instanceof Blob) {
    try {
      body = JSON.parse(await error.text()) as unknown;
    } catch {
      body = null;
    }
  }
  if (!isRecord(body)) return { status: null, messages: [], conflict: null, currentStatus: null };
  const status = typeof body.statusCode === 'number' ? body.statusCode : typeof body.status === 'number' ? body.status : null;
  const messages = Array.isArray(body.messages)
    ? body.messages.filter((m): m is string => typeof m === 'string')
    : isRecord(body.errors)
      ? Object.values(body.errors).flatMap((v) => (Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : []))
      : [];
  const currentStatus = typeof body.currentStatus === 'string' ? (body.currentStatus as PaperStatus) : null;
  const conflict = status === 409 ? (currentStatus ? 'locked' : 'currentVersion' in body ? 'stale' : null) : null;
  return { status, messages, conflict, currentStatus };
}

export const statusTone = (status: PaperStatus) =>
  status === 'Published' ? 'success' : status === 'Locked' ? 'primary' : status === 'Review' ? 'info' : ('neutral' as const);
