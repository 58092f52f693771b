type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a refused call of centers, seasons or registrations says (the spec's error body): its
 * status, its messages (field errors flattened), and the extras the screens act on — the
 * registration window of an `outsideWindow` refusal (decision 0152), `noSeat`, `missing`.
 * A download's error body arrives as a Blob.
 */
export interface CallFailure {
  status: number | null;
  messages: string[];
  reason: string | null;
  window: { opensAt: string; closesAt: string } | null;
  missing: string[];
}

export async function callFailure(error: unknown): Promise<CallFailure> {
  let body: unknown = error;
  if (typeof Blob !== 'undefined' && error instanceof Blob) {
    try {
      body = JSON.parse(await error.text()) as unknown;
    } catch {
      body = null;
    }
  }
  if (!isRecord(body)) return { status: null, messages: [], reason: null, window: null, missing: [] };
  const status = typeof body.statusCode === 'number' ? body.statusCode : typeof body.status === 'number' ? body.status : null;
  const messages = Array.isArray(body.messages)
    ? body.messages.filter((m): m is string => typeof m === 'string')
    : isRecord(body.errors)
      ? Object.values(body.errors).flatMap((v) => (Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : []))
      : [];
  const window =
    typeof body.registrationOpensAt === 'string' && typeof body.registrationClosesAt === 'string'
      ? { opensAt: body.registrationOpensAt, closesAt: body.registrationClosesAt }
      : null;
  const missing = Array.isArray(body.missing) ? body.missing.filter((m): m is string => typeof m === 'string') : [];
  return { status, messages, reason: typeof body.reason === 'string' ? body.reason : null, window, missing };
}

/** The messages of a failure as one sentence, or the fallback. */
export async function failureText(error: unknown, fallback: string): Promise<string> {
  const failure = await callFailure(error);
  return failure.messages.join(' ') || fallback;
}
