import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, GENERIC_ERROR_MESSAGE, ValidationFailure } from '#server/lib/errors.ts';

export interface ErrorBody {
  messages: string[];
  source: string;
  exception: string;
  errorId: string;
  supportMessage: string;
  statusCode: number;
  [extra: string]: unknown;
}

export interface ProblemDetails {
  type: string;
  title: string;
  status: 400;
  errors: Record<string, string[]>;
  traceId: string;
}

const VALIDATION_TITLE = 'One or more validation errors occurred.';

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** '/advancedSearch/fields/0' → 'advancedSearch.fields[0]' */
function fieldName(issue: AjvIssue, context: string | undefined): string {
  const path = issue.instancePath
    .split('/')
    .filter(Boolean)
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
  const missing = issue.keyword === 'required' ? String(issue.params.missingProperty ?? '') : '';
  if (missing) return path ? `${path}.${missing}` : missing;
  return path || context || 'body';
}

function issueMessage(issue: AjvIssue, field: string): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return `The ${field} field is required.`;
    case 'format':
      return p.format === 'email' ? `${field} must be a valid e-mail address.` : `${field} must be a valid ${String(p.format)}.`;
    case 'minLength':
      return Number(p.limit) === 1 ? `The ${field} field is required.` : `${field} must be at least ${String(p.limit)} characters long.`;
    case 'maxLength':
      return `${field} must be at most ${String(p.limit)} characters long.`;
    case 'type':
      return `${field} must be of type ${String(p.type)}.`;
    case 'enum':
      return `${field} must be one of: ${(p.allowedValues as unknown[]).join(', ')}.`;
    case 'minimum':
      return `${field} must be at least ${String(p.limit)}.`;
    case 'maximum':
      return `${field} must be at most ${String(p.limit)}.`;
    case 'minItems':
      return `${field} must have at least ${String(p.limit)} item(s).`;
    case 'maxItems':
      return `${field} must have at most ${String(p.limit)} item(s).`;
    case 'pattern':
      return `${field} has an invalid format.`;
    default:
      return `${field} ${issue.message ?? 'is invalid'}.`;
  }
}

export function validationErrors(issues: AjvIssue[], context: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = fieldName(issue, context);
    const message = issueMessage(issue, field);
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}

export function problemDetails(errors: Record<string, string[]>, traceId: string): ProblemDetails {
  return {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: VALIDATION_TITLE,
    status: 400,
    errors,
    traceId,
  };
}

export function errorBody(
  statusCode: number,
  messages: string[],
  source: string,
  extra: Record<string, unknown> = {},
  errorId: string = randomUUID(),
): ErrorBody {
  return {
    messages,
    source,
    exception: messages.join(' '),
    errorId,
    supportMessage: `Provide the error id ${errorId} to the support team for further analysis.`,
    statusCode,
    ...extra,
  };
}

function sourceOf(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
}

/**
 * A multipart body that ends early or has a malformed part: busboy throws plain Errors without
 * a code, from whichever route happens to read the parts. The caller sent it, so it is a 400.
 */
const MALFORMED_MULTIPART = /unexpected end of multipart data|malformed part header|boundary not found/i;

/** Fastify's own 4xx errors (bad JSON, wrong content type, too large) keep their status. */
function frameworkClientError(error: FastifyError): { status: number; message: string } | undefined {
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return undefined;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'The request body is not valid JSON.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'Unsupported content type.' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, message: 'The request is too large.' };
    default:
      return { status, message: error.message };
  }
}

export const errorsPlugin = fp(async function errors(app: FastifyInstance) {
  // A POST with a JSON content type and no body at all (the attachment download of the client
  // did so, issue 23) is a request without a body, not malformed JSON. Anything else goes
  // through Fastify's own parser, prototype-poisoning checks included.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    defaultJson(request, body as string, done);
  });

  app.setErrorHandler(async (error: FastifyError | AppError | ValidationFailure, request, reply: FastifyReply) => {
    if (error instanceof ValidationFailure) {
      return reply.status(400).type('application/problem+json').send(problemDetails(error.errors, request.id));
    }
    if ('validation' in error && Array.isArray(error.validation)) {
      const errors = validationErrors(error.validation as AjvIssue[], error.validationContext);
      return reply.status(400).type('application/problem+json').send(problemDetails(errors, request.id));
    }
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return reply.status(error.statusCode).send(errorBody(error.statusCode, error.messages, sourceOf(request), error.extra));
    }
    if (!(error as FastifyError).statusCode && MALFORMED_MULTIPART.test(error.message) && request.isMultipart()) {
      return reply
        .status(400)
        .type('application/problem+json')
        .send(problemDetails({ body: ['The upload could not be read as multipart/form-data.'] }, request.id));
    }
    const client = frameworkClientError(error as FastifyError);
    if (client) {
      if (client.status === 400) {
        return reply
          .status(400)
          .type('application/problem+json')
          .send(problemDetails({ body: [client.message] }, request.id));
      }
      const retryAfter = (error as FastifyError & { retryAfter?: number }).retryAfter;
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      return reply.status(client.status).send(errorBody(client.status, [client.message], sourceOf(request)));
    }
    const body = errorBody(500, [GENERIC_ERROR_MESSAGE], sourceOf(request));
    request.log.error({ err: error, errorId: body.errorId }, 'unhandled error');
    return reply.status(500).send(body);
  });
});
