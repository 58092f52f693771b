/**
 * Errors the API answers on purpose. The error handler (plugins/errors.ts) turns them into
 * the spec's error body `{messages, source, exception, errorId, supportMessage, statusCode}`;
 * anything else is a 5xx whose details stay in the log.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly messages: string[];
  readonly headers: Record<string, string>;
  /** Extra fields merged into the body (e.g. `currentStatus` on a 409). */
  readonly extra: Record<string, unknown>;

  constructor(statusCode: number, messages: string | string[], options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join(' '));
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.messages = list;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

/** A 400 in the problem-details shape: `{title, status, errors: {field: [messages]}}`. */
export class ValidationFailure extends Error {
  readonly statusCode = 400;
  readonly errors: Record<string, string[]>;

  constructor(errors: Record<string, string[]>) {
    super('One or more validation errors occurred.');
    this.name = 'ValidationFailure';
    this.errors = errors;
  }

  static field(field: string, message: string): ValidationFailure {
    return new ValidationFailure({ [field]: [message] });
  }
}

export const badRequest = (message: string | string[]) => new AppError(400, message);
export const unauthorized = (message = 'Authentication failed.') => new AppError(401, message);
export const forbidden = (message = 'You are not allowed to do this.') => new AppError(403, message);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, { extra });
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

export const GENERIC_ERROR_MESSAGE = 'Something went wrong, Please try again later or contact Admin';
