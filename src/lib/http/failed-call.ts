import { catalogueText } from '#src/lib/error-catalogue.ts';

/** Path of a call relative to its service, without query, hash or trailing slash, lower case. */
function pathOf(url: string | undefined): string {
  return (url ?? '').split(/[?#]/)[0].replace(/\/+$/, '').toLowerCase();
}

/** POST /tokens/refresh (spec §7): a 401 here ends the session. */
export function isRefreshCall(url: string | undefined): boolean {
  return /(^|\/)tokens\/refresh$/.test(pathOf(url));
}

/**
 * Spec §8: a 401 on the token calls (/tokens, /tokens/verifyotp, /tokens/resendotp), the
 * refresh call or the invalidate-permission call (logout) is never retried.
 */
export function isNoRetryCall(url: string | undefined): boolean {
  const path = pathOf(url);
  return /(^|\/)tokens(\/(verifyotp|resendotp|refresh))?$/.test(path) || /(^|\/)users\/[^/]+\/invalidatepermission$/.test(path);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
/** A body worth showing: a message, a list, or a structured error (not empty, not a raw Blob). */
const hasBody = (body: unknown): boolean => isText(body) || (Array.isArray(body) && body.length > 0) || (isRecord(body) && Object.keys(body).length > 0);

/** An errors map with at least one field message. */
const hasErrorsMap = (errors: unknown): boolean =>
  isRecord(errors) && Object.values(errors).some((messages) => isText(messages) || (Array.isArray(messages) && messages.some(isText)));

/**
 * What the failed-call handling of spec §8 shows for a response with this status and (parsed)
 * body; the error display (normalizeError) renders it. null: nothing is shown.
 * - 400: the body if it is a plain message, the body with an errors map (the display shows its
 *   title and every message joined per field), else its title, else 'Invalid end point…'.
 * - 404: the body, else 'Invalid end point…'.
 * - 405 and 415: the body's title, else 'Something went wrong…'.
 * - 403 and 409: the body or its exception (the display shows the exception of a body
 *   without messages), else the generic message.
 * - 500: the body, else the generic message.
 * Blob bodies arrive here already parsed as JSON (or undefined), never shown as a Blob.
 */
export function failedCallSubject(status: number, body: unknown): unknown {
  switch (status) {
    case 400:
      if (isText(body)) return body;
      // Spec §8 "Error display": a 400 with an errors map shows the title and every message,
      // joined per field, so the whole body goes on to the display (with its status).
      if (isRecord(body) && hasErrorsMap(body.errors)) return { ...body, status: 400 };
      if (isRecord(body) && isText(body.title)) return body.title;
      return catalogueText('invalidEndpoint');
    case 404:
      return hasBody(body) ? body : catalogueText('invalidEndpoint');
    case 405:
    case 415:
      return isRecord(body) && isText(body.title) ? body.title : catalogueText('generic');
    case 403:
    case 409:
    case 500:
      return hasBody(body) ? body : catalogueText('generic');
    default:
      return null;
  }
}

/** Spec §8: "The rejected value is the body, or the error itself." */
export function rejectionValue(body: unknown, error: unknown): unknown {
  return body === undefined || body === null || body === '' ? error : body;
}
