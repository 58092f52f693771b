import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, conflict, tooManyRequests, ValidationFailure } from '#server/lib/errors.ts';
import { errorsPlugin } from '#server/plugins/errors.ts';

async function appWithRoutes() {
  const logged: unknown[] = [];
  const app = Fastify({
    logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
    ajv: { customOptions: { allErrors: true } },
  });
  await app.register(errorsPlugin);
  app.post(
    '/validated',
    {
      schema: {
        body: {
          type: 'object',
          required: ['email', 'advancedSearch'],
          properties: {
            email: { type: 'string', format: 'email' },
            name: { type: 'string', minLength: 2 },
            advancedSearch: { type: 'object', properties: { fields: { type: 'array', items: { type: 'string' } } } },
          },
        },
      },
    },
    async () => ({ ok: true }),
  );
  app.get('/boom', async () => {
    throw new Error('database password is hunter2 at /srv/app/secret.ts:12');
  });
  app.get('/conflict', async () => {
    throw conflict('The ticket is InProgress.', { currentStatus: 'InProgress' });
  });
  app.get('/slow-down', async () => {
    throw tooManyRequests('Too many attempts.', 29.2);
  });
  app.get('/manual-validation', async () => {
    throw ValidationFailure.field('password', 'Passwords must be at least 12 characters long.');
  });
  app.get('/teapot', async () => {
    throw new AppError(403, ['first', 'second']);
  });
  await app.ready();
  return { app, logged };
}

describe('error handler', () => {
  it('should answer a schema failure with problem details listing every field', async () => {
    const { app } = await appWithRoutes();
    const res = await app.inject({ method: 'POST', url: '/validated', payload: { email: 'nope', name: 'x', advancedSearch: { fields: [1, {}] } } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const body = res.json();
    expect(body.title).toBe('One or more validation errors occurred.');
    expect(body.status).toBe(400);
    expect(body.errors).toEqual({
      email: ['email must be a valid e-mail address.'],
      name: ['name must be at least 2 characters long.'],
      'advancedSearch.fields[1]': ['advancedSearch.fields[1] must be of type string.'],
    });
  });

  it('should name a missing property as the field', async () => {
    const { app } = await appWithRoutes();
    const res = await app.inject({ method: 'POST', url: '/validated', payload: {} });
    expect(res.json().errors).toEqual({
      email: ['The email field is required.'],
      advancedSearch: ['The advancedSearch field is required.'],
    });
  });

  it('should answer malformed JSON with a 400, not a 500', async () => {
    const { app } = await appWithRoutes();
    const res = await app.inject({ method: 'POST', url: '/validated', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ body: ['The request body is not valid JSON.'] });
  });

  it('should answer an unsupported content type with 415 in the error shape', async () => {
    const { app } = await appWithRoutes();
    const res = await app.inject({ method: 'POST', url: '/validated', payload: 'x', headers: { 'content-type': 'application/x-nope' } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ messages: ['Unsupported content type.'], statusCode: 415 });
  });

  it('should hide a 5xx cause from the caller and log it under the errorId', async () => {
    const { app, logged } = await appWithRoutes();
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({
      messages: ['Something went wrong, Please try again later or contact Admin'],
      exception: 'Something went wrong, Please try again later or contact Admin',
      source: 'GET /boom',
      statusCode: 500,
    });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('secret.ts');
    const entry = logged.find((line) => (line as { errorId?: string }).errorId === body.errorId) as { err: { message: string; stack: string } };
    expect(entry.err.message).toContain('hunter2');
    expect(entry.err.stack).toBeTruthy();
  });

  it('should carry extra fields and headers of deliberate errors', async () => {
    const { app } = await appWithRoutes();
    const res = await app.inject({ method: 'GET', url: '/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ messages: ['The ticket is InProgress.'], currentStatus: 'InProgress', statusCode: 409 });
    const limited = await app.inject({ method: 'GET', url: '/slow-down' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
    const manual = await app.inject({ method: 'GET', url: '/manual-validation' });
    expect(manual.json().errors).toEqual({ password: ['Passwords must be at least 12 characters long.'] });
    const many = await app.inject({ method: 'GET', url: '/teapot' });
    expect(many.json()).toMatchObject({ messages: ['first', 'second'], exception: 'first second', statusCode: 403 });
  });
});
