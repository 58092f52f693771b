import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, codeIn, createUser } from './identity-test-kit.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every message it is given. */
async function startSmtpServer() {
  const received: Received[] = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async next(count: number, timeoutMs = 15_000): Promise<Received> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`no message ${count} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received[count - 1];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded body of the first MIME part of `type` (quoted-printable, base64 or plain), with \n line ends. */
function mimePart(raw: string, type: string): string {
  return decodePart(raw, type).replace(/\r\n/g, '\n');
}

function decodePart(raw: string, type: string): string {
  const start = raw.search(new RegExp(`Content-Type: ${type}`, 'i'));
  if (start < 0) throw new Error(`no ${type} part in:\n${raw}`);
  const part = raw.slice(start);
  const headerEnd = part.indexOf('\r\n\r\n');
  const headers = part.slice(0, headerEnd);
  const body = part.slice(headerEnd + 4).split(/\r\n--/)[0];
  const encoding = /Content-Transfer-Encoding: ([\w-]+)/i.exec(headers)?.[1].toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const smtp = await startSmtpServer();
afterAll(() => smtp.close());

describeEachDatabase(
  'e-mail delivery over SMTP',
  (get) => {
    it('should deliver the sign-in code to a real SMTP server and sign in with the code read from it', async () => {
      const { app, db } = get();
      expect(app.mailer.mode).toBe('smtp');
      const user = await createUser(db, { firstName: 'Ishaan' });
      const before = smtp.received.length;
      const challenge = await call(app, 'POST', '/api/tokens', { email: user.email, password: user.password });
      expect(challenge.statusCode).toBe(200);

      const message = await smtp.next(before + 1);
      expect(message.to).toEqual([user.email]);
      expect(message.from).toBe('no-reply@exam-portal.test');
      expect(message.raw).toMatch(/^Subject: Your Exam Portal sign-in code\r$/m);
      expect(message.raw).toMatch(/multipart\/alternative/);
      const text = mimePart(message.raw, 'text/plain');
      expect(text.startsWith('Hello Ishaan,\n')).toBe(true);
      const html = mimePart(message.raw, 'text/html');
      expect(html).toContain('<html lang="en-IN" dir="ltr">');
      const code = codeIn({ to: user.email, subject: '', text, html });
      expect(html).toContain(code);

      const verified = await call(app, 'POST', '/api/tokens/verifyotp', { email: user.email, enteredOTP: code, token: challenge.json().token });
      expect(verified.statusCode).toBe(200);
      expect(Object.keys(verified.json()).sort()).toEqual(['preferredLanguage', 'refreshToken', 'refreshTokenExpiryTime', 'token']);
      const outbox = await db.query(`select 1 from mail_outbox where lower(to_address) = lower($1)`, [user.email]);
      expect(outbox.rows).toHaveLength(0);
    });

    it('should deliver a Gujarati mail in UTF-8 with its link built from PUBLIC_URL', async () => {
      const { app, db } = get();
      const user = await createUser(db, { preferredLanguage: 'gu' });
      const before = smtp.received.length;
      expect((await call(app, 'POST', '/api/users/forgot-password', { email: user.email })).statusCode).toBe(200);
      const message = await smtp.next(before + 1);
      const text = mimePart(message.raw, 'text/plain');
      expect(text).toContain('અમને તમારા Exam Portal ખાતાનો પાસવર્ડ રીસેટ કરવાની વિનંતી મળી છે.');
      expect(text).toMatch(/http:\/\/exam-portal\.test\/reset-password\?tenant=root&email=[^&\s]+&token=[\w-]{43}/);
    });
  },
  { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Exam Portal <no-reply@exam-portal.test>' } },
);
