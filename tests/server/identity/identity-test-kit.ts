import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { hashPassword } from '#server/lib/passwords.ts';

let counter = 0;

/**
 * A client address no other test uses, so each test starts below every per-IP rate limit
 * (the limits themselves are proven in rate-limit.test.ts).
 */
export function freshIp(): string {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
}

export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${counter}-${process.pid}@example.test`;
}

/** A password that passes every rule of the policy. */
export const GOOD_PASSWORD = 'lantern orbit velvet 42';
export const OTHER_GOOD_PASSWORD = 'quiet harbour pebble 77';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  userName: string;
}

export interface UserOptions {
  email?: string;
  password?: string | null;
  firstName?: string;
  lastName?: string;
  userName?: string;
  role?: string;
  tenantId?: string;
  emailConfirmed?: boolean;
  isActive?: boolean;
  isFirstTimeLogin?: boolean;
  loginType?: 'local' | 'directory';
  preferredLanguage?: string | null;
  instituteId?: string | null;
}

export async function createUser(db: Db, options: UserOptions = {}): Promise<TestUser> {
  const email = options.email ?? uniqueEmail('user');
  const password = options.password === undefined ? GOOD_PASSWORD : options.password;
  const firstName = options.firstName ?? 'Asha';
  const lastName = options.lastName ?? 'Patel';
  const userName = options.userName ?? email.split('@')[0];
  const tenantId = options.tenantId ?? 'root';
  const { rows } = await db.query<{ id: string }>(
    `insert into users (tenant_id, first_name, last_name, email, user_name, password_hash, login_type, is_active,
                        email_confirmed, is_first_time_login, preferred_language, user_type, institute_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'candidate', $12) returning id`,
    [
      tenantId,
      firstName,
      lastName,
      email,
      userName,
      password ? await hashPassword(password) : null,
      options.loginType ?? 'local',
      options.isActive ?? true,
      options.emailConfirmed ?? true,
      options.isFirstTimeLogin ?? false,
      options.preferredLanguage ?? null,
      options.instituteId ?? null,
    ],
  );
  await db.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = $2 and name = $3`, [
    rows[0].id,
    tenantId,
    options.role ?? 'Candidate',
  ]);
  return { id: rows[0].id, email, password: password ?? '', firstName, lastName, userName };
}

export interface Sent {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Every mail sent to `to` so far, newest first (after the in-flight ones are handed over). */
export async function mailsTo(app: FastifyInstance, to: string): Promise<Sent[]> {
  await app.accountMail.settled();
  const { rows } = await app.db.query<Sent>(
    `select to_address as "to", subject, text_body as text, html_body as html from mail_outbox
     where lower(to_address) = lower($1) order by sent_at desc, id desc`,
    [to],
  );
  return rows;
}

export async function countMailsTo(app: FastifyInstance, to: string): Promise<number> {
  return (await mailsTo(app, to)).length;
}

export function codeIn(mail: Sent): string {
  const match = /: (\d{6})\n/.exec(mail.text);
  if (!match) throw new Error(`no code in mail "${mail.subject}":\n${mail.text}`);
  return match[1];
}

export function linkIn(mail: Sent): URL {
  const match = /(https?:\/\/\S+)/.exec(mail.text);
  if (!match) throw new Error(`no link in mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[1]);
}

export interface CallOptions {
  ip?: string;
  headers?: Record<string, string>;
  token?: string;
}

export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    payload: payload as never,
    remoteAddress: options.ip ?? freshIp(),
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  });
}

export interface Session {
  token: string;
  refreshToken: string;
  refreshTokenExpiryTime: string;
}

/** Password, then the code read from the mailbox: the whole sign-in as a client does it. */
export async function signIn(app: FastifyInstance, user: Pick<TestUser, 'email' | 'password'>, ip = freshIp()): Promise<Session> {
  const first = await call(app, 'POST', '/api/tokens', { email: user.email, password: user.password }, { ip });
  if (first.statusCode !== 200) throw new Error(`POST /api/tokens answered ${first.statusCode}: ${first.body}`);
  const [mail] = await mailsTo(app, user.email);
  const verified = await call(
    app,
    'POST',
    '/api/tokens/verifyotp',
    { email: user.email, enteredOTP: codeIn(mail), token: first.json().token },
    { ip },
  );
  if (verified.statusCode !== 200) throw new Error(`POST /api/tokens/verifyotp answered ${verified.statusCode}: ${verified.body}`);
  return verified.json();
}

/** The error body without the parts that differ on every answer (errorId and the sentence naming it). */
export function stableError(response: LightMyRequestResponse) {
  const { errorId: _errorId, supportMessage: _supportMessage, ...rest } = response.json();
  return { status: response.statusCode, headers: { 'content-type': response.headers['content-type'] }, body: rest };
}

export const HOUR = 60 * 60 * 1000;
export const MINUTE = 60 * 1000;
