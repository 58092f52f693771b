import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export { createUser, freshIp, GOOD_PASSWORD, OTHER_GOOD_PASSWORD, uniqueEmail, type TestUser, type UserOptions } from '#tests/setup/test-users.ts';
import { freshIp, type TestUser } from '#tests/setup/test-users.ts';

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

export function call(app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: unknown, options: CallOptions = {}): Promise<LightMyRequestResponse> {
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
  const verified = await call(app, 'POST', '/api/tokens/verifyotp', { email: user.email, enteredOTP: codeIn(mail), token: first.json().token }, { ip });
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
