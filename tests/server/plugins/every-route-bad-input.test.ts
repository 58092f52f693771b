import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, createUser, GOOD_PASSWORD } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture } from '../tickets/fixture.ts';

/**
 * SECURITY.md "Input and files" and issue 23: every route of /api/docs/json gets generated bad
 * variants of a plausible request (NUL bytes, lone surrogates, 1e309, 1 MB strings, deep
 * nesting, prototype-pollution keys, wrong types, missing fields) over real HTTP. No answer may
 * be a 5xx and no connection may be reset. The routes come from the OpenAPI document, so a new
 * route is covered the day it is registered.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
  minItems?: number;
  default?: unknown;
}

interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

interface Sample {
  userId: string;
  ticketId: number;
}

/** Raw JSON text spliced in place of a marker: JSON.stringify cannot write 1e309. */
const RAW = (text: string) => `\u0001raw:${text}`;
const serialize = (value: unknown) => JSON.stringify(value)?.replace(/"\\u0001raw:([^"]*)"/g, '$1') ?? 'null';

function plausible(schema: JsonSchema | undefined, name: string, sample: Sample): unknown {
  if (!schema) return 'text';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return plausible(choice.find((s) => s.type !== 'null') ?? choice[0], name, sample);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return sample.userId;
      if (schema.format === 'email') return `probe-${randomUUID()}@example.test`;
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return '2000-01-01';
      if (/password/i.test(name)) return GOOD_PASSWORD;
      if (/userid/i.test(name)) return sample.userId;
      return 'Sample text'.padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
    case 'number':
      if (/ticket/i.test(name)) return sample.ticketId;
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => plausible(schema.items, name, sample));
    case 'object':
    case undefined:
      if (!schema.properties) return type === 'object' ? {} : 'text';
      return Object.fromEntries(Object.entries(schema.properties).map(([key, s]) => [key, plausible(s, key, sample)]));
    default:
      return null;
  }
}

const MEGABYTE = 'x'.repeat(1024 * 1024);
const deep = (levels: number) => RAW('['.repeat(levels) + ']'.repeat(levels));

/** Values that replace one field of a JSON body. */
const badJsonValues: unknown[] = [
  'a\u0000b',
  '\ud800x',
  'x\udfff',
  RAW('1e309'),
  RAW('-1e309'),
  RAW('123456789012345678901234567890'),
  MEGABYTE,
  { nested: true },
  [1, 'two', null],
  true,
  null,
  -1,
  1.5,
  deep(5000),
];

/** Whole JSON bodies, written as text. */
const badJsonBodies = [
  '{"__proto__":{"isAdmin":true},"x":1}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '['.repeat(20000) + ']'.repeat(20000),
  '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
  '"\\u0000"',
  '1e309',
  '{',
  '',
];

/** Values that replace one query or path parameter (already URL-encoded). */
const badUrlValues = [
  'a%00b',
  '%ED%A0%80',
  '%F0%90%80',
  '1e309',
  '-1e309',
  '1e-400',
  'NaN',
  'Infinity',
  '99999999999999999999999',
  '-0',
  'x'.repeat(4000),
  '%',
  '%E0%A4%A',
];

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  label: string;
}

interface Outcome {
  label: string;
  status?: number;
  error?: string;
}

let addressCounter = 0;
/** Every few probes come from another loopback address, so per-address rate limits do not hide the handlers. */
function nextLocalAddress() {
  addressCounter += 1;
  const n = Math.floor(addressCounter / 20) + 2;
  return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

function send(port: number, probe: Probe): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: probe.method, path: probe.path, headers: probe.headers, localAddress: nextLocalAddress(), agent: false },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ label: probe.label, status: res.statusCode }));
        res.on('error', (error) => resolve({ label: probe.label, status: res.statusCode, error: `${error.message} after ${res.statusCode}` }));
        res.on('aborted', () => resolve({ label: probe.label, status: res.statusCode, error: `aborted after ${res.statusCode}` }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ label: probe.label, error: error.message }));
    req.end(probe.body);
  });
}

function multipart(fields: Record<string, string>, file: { name: string; type: string; content: string } | undefined) {
  const boundary = `----probe${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: ${file.type}\r\n\r\n${file.content}\r\n`,
      ),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** The probes of one route: a plausible call, then one bad thing at a time. */
function probesFor(method: string, openApiPath: string, operation: Operation, sample: Sample, token: string): Probe[] {
  const params = operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const jsonSchema = operation.requestBody?.content['application/json']?.schema;
  const isMultipart = Boolean(operation.requestBody?.content['multipart/form-data']) || /upload/i.test(openApiPath);

  const pathValues = Object.fromEntries(pathParams.map((p) => [p.name, encodeURIComponent(String(plausible(p.schema, p.name, sample)))]));
  const queryValues = Object.fromEntries(queryParams.map((p) => [p.name, encodeURIComponent(String(plausible(p.schema, p.name, sample)))]));
  const url = (pathOverride: Record<string, string> = {}, queryOverride: Record<string, string | undefined> = {}) => {
    const pathText = openApiPath.replace(/\{(\w+)\}/g, (_m, name: string) => pathOverride[name] ?? pathValues[name] ?? '1');
    const query = Object.entries({ ...queryValues, ...queryOverride })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
      .join('&');
    return query ? `${pathText}?${query}` : pathText;
  };
  const headers = (type?: string): Record<string, string> => ({ authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) });
  const baseBody = jsonSchema ? (plausible(jsonSchema, 'body', sample) as unknown) : undefined;
  const hasBody = method !== 'GET' && method !== 'DELETE' && method !== 'HEAD';
  const jsonProbe = (label: string, body: string, pathText = url()): Probe => ({ method, path: pathText, headers: headers('application/json'), body, label });
  const plain = (label: string, pathText: string): Probe =>
    hasBody && !isMultipart ? jsonProbe(label, serialize(baseBody ?? {}), pathText) : { method, path: pathText, headers: headers(), label };

  const probes: Probe[] = [plain('plausible', url())];
  for (const p of pathParams) for (const bad of badUrlValues) probes.push(plain(`path ${p.name}=${bad.slice(0, 20)}`, url({ [p.name]: bad })));
  for (const p of queryParams) {
    for (const bad of badUrlValues) probes.push(plain(`query ${p.name}=${bad.slice(0, 20)}`, url({}, { [p.name]: bad })));
    probes.push(plain(`query ${p.name} missing`, url({}, { [p.name]: undefined })));
    probes.push(plain(`query ${p.name} twice`, `${url()}&${encodeURIComponent(p.name)}=2`));
  }
  probes.push(plain('query __proto__', `${url()}${url().includes('?') ? '&' : '?'}__proto__[x]=1&constructor[prototype][x]=1`));

  if (hasBody && !isMultipart) {
    if (baseBody && typeof baseBody === 'object' && !Array.isArray(baseBody)) {
      for (const [index, key] of Object.keys(baseBody).entries()) {
        // One megabyte string per route is enough to hit the size limits; more only costs time.
        for (const bad of badJsonValues.filter((value) => value !== MEGABYTE || index === 0)) {
          const label = typeof bad === 'string' ? JSON.stringify(bad.slice(0, 16)) : Array.isArray(bad) ? 'array' : String(bad).slice(0, 16);
          probes.push(jsonProbe(`body ${key}=${label}`, serialize({ ...baseBody, [key]: bad })));
        }
        const { [key]: _dropped, ...missing } = baseBody as Record<string, unknown>;
        probes.push(jsonProbe(`body ${key} missing`, serialize(missing)));
      }
    }
    for (const text of badJsonBodies) probes.push(jsonProbe(`body ${text.slice(0, 24)}`, text));
    for (const bad of badJsonValues.slice(0, 7)) probes.push(jsonProbe('body is a bad value', serialize(bad)));
  }
  if (isMultipart) {
    const names = ['a\u0000.txt', '\ud800.pdf', 'x'.repeat(5000) + '.txt', '../../etc/passwd', 'evil.html'];
    for (const bad of ['a\u0000b', '\ud800', '1e309', 'x'.repeat(100_000), String(sample.ticketId)]) {
      const form = multipart({ ticketId: bad }, { name: 'note.txt', type: 'text/plain', content: 'hello' });
      probes.push({ method, path: url(), headers: headers(form.type), body: form.body, label: `multipart ticketId=${bad.slice(0, 16)}` });
    }
    for (const name of names) {
      const form = multipart({ ticketId: String(sample.ticketId) }, { name, type: 'text/plain', content: 'hello\u0000world' });
      probes.push({ method, path: url(), headers: headers(form.type), body: form.body, label: `multipart filename ${name.slice(0, 16)}` });
    }
    const broken = `--b\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated`;
    probes.push({ method, path: url(), headers: headers('multipart/form-data; boundary=b'), body: broken, label: 'multipart unterminated' });
  }
  return probes;
}

async function inParallel<T, R>(items: T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++];
        results.push(await run(item));
      }
    }),
  );
  return results;
}

describeEachDatabase('every documented route under bad input', (get) => {
  it('should answer every bad variant of every route without a 5xx or a reset connection', async () => {
    const { app } = get();
    const docs = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const fixture = await ticketsFixture(app);
    const ticket = await raiseTicket(app, fixture.requester, { supportGroupId: fixture.groups.general });
    const target = await createUser(app.db, { roles: ['Candidate'] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const routes = Object.entries(docs.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
    expect(routes.length).toBeGreaterThan(60);

    const failures: Outcome[] = [];
    let sent = 0;
    for (const route of routes) {
      // A fresh administrator per route: a probe may sign the caller out or deactivate them.
      const admin = await createSignedInUser(app, { roles: ['Admin'] });
      const sample = { userId: route.path.includes('invalidatepermission') ? admin.id : target.id, ticketId: ticket.ticketId };
      const probes = probesFor(route.method, route.path, route.operation, sample, admin.token);
      const outcomes = await inParallel(probes, 6, (probe) => send(port, probe));
      sent += outcomes.length;
      for (const outcome of outcomes) {
        if (outcome.error || !outcome.status || outcome.status >= 500) failures.push({ ...outcome, label: `${route.method} ${route.path}: ${outcome.label}` });
      }
    }
    console.info(`bad-input probes [${get().kind}]: ${sent} requests to ${routes.length} routes`);
    expect(sent).toBeGreaterThan(1500);
    expect(failures, failures.map((f) => `${f.label} → ${f.status ?? ''} ${f.error ?? ''}`).join('\n')).toEqual([]);
  }, 240_000);
});
