import { catalogueText, isCatalogueText, type DisplayText } from './error-catalogue.ts';

/** The expandable details of an error toast (spec §8: error id, status code, support message). */
export interface ErrorDetails {
  errorId: string | null;
  statusCode: number | null;
  supportMessage: string | null;
}

/** What the error toast shows: an optional heading, lines of text, optional details. */
export interface ErrorDisplay {
  title: DisplayText | null;
  lines: DisplayText[];
  details: ErrorDetails | null;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter(isText) : isText(value) ? [value] : []);
const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

/** Statuses whose body carries a messages list and expandable details (spec §8). */
const DETAILED_STATUSES = [401, 403, 404, 409, 500];
const NETWORK_ERROR_CODE = 'ERR_NETWORK';

const show = (lines: DisplayText[], title: DisplayText | null = null, details: ErrorDetails | null = null): ErrorDisplay => ({
  title,
  lines,
  details,
});

function detailsOf(body: Json): ErrorDetails | null {
  const details: ErrorDetails = {
    errorId: isText(body.errorId) ? body.errorId : null,
    statusCode: typeof body.statusCode === 'number' ? body.statusCode : typeof body.status === 'number' ? body.status : null,
    supportMessage: isText(body.supportMessage) ? body.supportMessage : null,
  };
  return details.errorId || details.statusCode !== null || details.supportMessage ? details : null;
}

/** The values of the first entry of `errorMessageDetails` (a list of records, or a map). */
function firstEntryValues(details: unknown): string[] {
  const first = Array.isArray(details) ? details[0] : isRecord(details) ? Object.values(details)[0] : undefined;
  if (isRecord(first)) return Object.values(first).flatMap(texts);
  return texts(first);
}

/** Spec §8 "Error display", for a value that is not a Blob. */
export function normalizeParsedError(input: unknown): ErrorDisplay | null {
  // A text the failed-call handling chose from the catalogue.
  if (isCatalogueText(input)) return show([input]);
  // An array of strings is shown as lines.
  if (Array.isArray(input) && texts(input).length > 0) return show(texts(input));
  // A non-empty string is shown as is.
  if (isText(input)) return show([input]);

  if (isRecord(input)) {
    // Status 400 with an errors map: the title, and all messages joined per field.
    if (input.status === 400 && isRecord(input.errors)) {
      const lines = Object.values(input.errors)
        .map((messages) => texts(messages).join(' '))
        .filter(isText);
      return show(lines, isText(input.title) ? input.title : null);
    }

    // Status 401, 403, 404, 409 or 500: the messages joined, with details; else the exception.
    const status = typeof input.statusCode === 'number' ? input.statusCode : input.status;
    if (typeof status === 'number' && DETAILED_STATUSES.includes(status)) {
      const messages = texts(input.messages);
      if (messages.length > 0) return show([messages.join(' ')], null, detailsOf(input));
      if (isText(input.exception)) return show([input.exception], null, detailsOf(input));
    }

    // hasError: the first entry of errorMessageDetails under the errorMessage title, else errorMessage.
    if (input.hasError) {
      const message = isText(input.errorMessage) ? input.errorMessage : null;
      const values = input.errorMessageDetails == null ? [] : firstEntryValues(input.errorMessageDetails);
      if (values.length > 0) return show([values.join(', ')], message);
      return show([message ?? catalogueText('generic')]);
    }

    // Any other response with title, exception or errorMessage: that text, else the generic message.
    if ('title' in input || 'exception' in input || 'errorMessage' in input) {
      const text = [input.title, input.exception, input.errorMessage].find(isText);
      return show([text ?? catalogueText('generic')]);
    }

    // statusCode and status, and not a network error: nothing is shown.
    if ('statusCode' in input && 'status' in input && input.code !== NETWORK_ERROR_CODE) return null;
  }

  // Otherwise: the network message.
  return show([catalogueText('network')]);
}

/** The text of a Blob parsed as JSON; undefined when it is not JSON. */
export async function parseBlob(blob: Blob): Promise<unknown> {
  try {
    return JSON.parse(await blob.text()) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Spec §8 "Error display": what the error toast shows for a failed call's rejected value (the
 * body, or the error itself), or null when nothing is to be shown. A Blob (a download's error
 * body) is parsed as JSON first, which is why this is async; otherwise it is a pure mapping.
 */
export async function normalizeError(input: unknown): Promise<ErrorDisplay | null> {
  return normalizeParsedError(isBlob(input) ? await parseBlob(input) : input);
}
