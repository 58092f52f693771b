import type { FastifyInstance } from 'fastify';
import type { ExamPermission } from '#machines/permissions.ts';
import { as, createSignedInUser, type TestUser, type UserOptions } from '#tests/setup/test-users.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallOptions {
  /** Sent as the ProjectId header. */
  project?: number | string;
  /** Sent as the ExamId header (e.g. 42 or '42&7'). */
  exam?: number | string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A call to the exam workspace API as a signed-in user, with the context headers. */
export function call(app: FastifyInstance, user: TestUser, method: Method, url: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...as(user), ...options.headers };
  if (options.project !== undefined) headers.ProjectId = String(options.project);
  if (options.exam !== undefined) headers.ExamId = String(options.exam);
  return app.inject({ method, url, headers, payload: options.body as never });
}

let codeCounter = 0;
export const uniqueCode = (prefix = 'P') => `${prefix}${process.pid % 1000}-${(codeCounter += 1)}`;

export async function staffUser(app: FastifyInstance, options: UserOptions = {}) {
  return createSignedInUser(app, { roles: ['ExamStaff'], ...options });
}

export async function managerUser(app: FastifyInstance, options: UserOptions = {}) {
  return createSignedInUser(app, { roles: ['ExamManager'], ...options });
}

/** Creates a project as `manager` (optionally from a template) and returns its id. */
export async function createProject(app: FastifyInstance, manager: TestUser, body: Record<string, unknown> = {}): Promise<number> {
  const res = await call(app, manager, 'POST', '/api/v1/project', { body: { code: uniqueCode(), name: 'Class 10 Board 2027', ...body } });
  if (res.statusCode !== 201) throw new Error(`create project ${res.statusCode}: ${res.body}`);
  return (res.json() as { projectId: number }).projectId;
}

export async function createExam(app: FastifyInstance, manager: TestUser, projectId: number, body: Record<string, unknown> = {}): Promise<number> {
  const res = await call(app, manager, 'POST', '/api/v1/exam', { project: projectId, body: { code: uniqueCode('E'), name: 'Mathematics', ...body } });
  if (res.statusCode !== 201) throw new Error(`create exam ${res.statusCode}: ${res.body}`);
  return (res.json() as { examId: number }).examId;
}

export async function grant(
  app: FastifyInstance,
  manager: TestUser,
  projectId: number,
  user: TestUser,
  permission: ExamPermission,
  examId: number | null = null,
) {
  const res = await call(app, manager, 'POST', '/api/v1/examgrant', { project: projectId, body: { userId: user.id, permission, examId } });
  if (res.statusCode !== 201) throw new Error(`grant ${res.statusCode}: ${res.body}`);
  return (res.json() as { grantId: number }).grantId;
}

/** Sends a status event; returns the response. */
export function sendProjectEvent(app: FastifyInstance, user: TestUser, projectId: number, event: string, extra: Record<string, unknown> = {}) {
  return call(app, user, 'POST', `/api/v1/project/${projectId}/status`, { project: projectId, body: { event, ...extra } });
}

export function sendExamEvent(app: FastifyInstance, user: TestUser, projectId: number, examId: number, event: string, extra: Record<string, unknown> = {}) {
  return call(app, user, 'POST', `/api/v1/exam/${examId}/status`, { project: projectId, body: { event, ...extra } });
}

/** Brings a project to Active through the API (an item type and a category first). */
export async function activateProject(app: FastifyInstance, manager: TestUser, projectId: number) {
  const setup = await sendProjectEvent(app, manager, projectId, 'project.startSetup');
  if (setup.statusCode !== 200) throw new Error(`startSetup ${setup.statusCode}: ${setup.body}`);
  const types = await call(app, manager, 'GET', '/api/v1/itemtype', { project: projectId });
  if ((types.json() as unknown[]).length === 0) {
    await call(app, manager, 'POST', '/api/v1/itemtype', {
      project: projectId,
      body: { name: 'MCQ', kind: 'singleChoice', marking: { correct: 1, wrong: 0, unanswered: 0 } },
    });
  }
  const categories = await call(app, manager, 'GET', '/api/v1/category', { project: projectId });
  if ((categories.json() as unknown[]).length === 0) {
    await call(app, manager, 'POST', '/api/v1/category', { project: projectId, body: { name: 'Mathematics' } });
  }
  const active = await sendProjectEvent(app, manager, projectId, 'project.activate');
  if (active.statusCode !== 200) throw new Error(`activate ${active.statusCode}: ${active.body}`);
}

/** A multipart/form-data body with text fields and files, for app.inject. */
export function multipart(fields: Record<string, string>, files: Array<{ name: string; content: Buffer; type?: string }>) {
  const boundary = `----exam-portal-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The smallest valid PNG (1×1) and a WAV header with no samples, for uploads. */
export const tinyPng = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a5d80000000049454e44ae426082',
  'hex',
);
export const tinyWav = Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt '), Buffer.alloc(24)]);

export function uploadFiles(
  app: FastifyInstance,
  user: TestUser,
  projectId: number,
  categoryId: number,
  files: Array<{ name: string; content: Buffer; type?: string }>,
) {
  const body = multipart({ categoryId: String(categoryId) }, files);
  return app.inject({
    method: 'POST',
    url: '/api/v1/categoryfile',
    headers: { ...as(user), ProjectId: String(projectId), ...body.headers },
    payload: body.payload,
  });
}
