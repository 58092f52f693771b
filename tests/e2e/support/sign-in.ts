/**
 * Signs in to a running server over real HTTP, exactly as the client does: password, then
 * the e-mailed code read from the dev mailbox (outbox mode), then verify. For e2e tests and
 * benchmarks that need an access token.
 */
export interface HttpSession {
  token: string;
  refreshToken: string;
  refreshTokenExpiryTime: string;
}

const codePattern = /: (\d{6})\n/;

export async function latestMail(baseUrl: string, to: string): Promise<{ subject: string; text: string; html: string } | undefined> {
  const res = await fetch(`${baseUrl}/dev/mailbox.json?to=${encodeURIComponent(to)}`);
  const mails = (await res.json()) as Array<{ subject: string; text: string; html: string }>;
  return mails[0];
}

export async function signInOverHttp(baseUrl: string, email: string, password: string): Promise<HttpSession> {
  const before = await latestMail(baseUrl, email);
  const first = await fetch(`${baseUrl}/api/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', tenant: 'root' },
    body: JSON.stringify({ email, password }),
  });
  if (first.status !== 200) throw new Error(`POST /api/tokens answered ${first.status}: ${await first.text()}`);
  const { token: challenge } = (await first.json()) as { token: string };
  let code: string | undefined;
  for (let attempt = 0; attempt < 100 && !code; attempt += 1) {
    const mail = await latestMail(baseUrl, email);
    if (mail && mail.text !== before?.text) code = codePattern.exec(mail.text)?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 50));
  }
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  const verified = await fetch(`${baseUrl}/api/tokens/verifyotp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', tenant: 'root' },
    body: JSON.stringify({ email, enteredOTP: code, token: challenge }),
  });
  if (verified.status !== 200) throw new Error(`POST /api/tokens/verifyotp answered ${verified.status}: ${await verified.text()}`);
  return (await verified.json()) as HttpSession;
}

/** Waits for a mail to `to` that differs from `before` (the newest one before the action that sends it). */
export async function nextMail(baseUrl: string, to: string, before: { text: string } | undefined, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = await latestMail(baseUrl, to);
    if (mail && mail.text !== before?.text) return mail;
    if (Date.now() > deadline) throw new Error(`no new mail to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 6-digit code of a sign-in mail. */
export function codeOf(mail: { text: string }): string {
  const code = codePattern.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in the mail:\n${mail.text}`);
  return code;
}

/** The first link of a mail that opens `route` (e.g. '/confirm-email'). */
export function linkOf(mail: { text: string }, route: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname.endsWith(route));
  if (!link) throw new Error(`no ${route} link in the mail:\n${mail.text}`);
  return link;
}

/** Minimal page surface the browser sign-in needs (playwright-core's Page). */
interface SignInPage {
  goto(url: string): Promise<unknown>;
  url(): string;
  getByLabel(text: string, options?: { exact?: boolean }): { fill(value: string): Promise<void> };
  getByRole(
    role: 'button' | 'heading',
    options: { name: string | RegExp; exact?: boolean; level?: number },
  ): { click(): Promise<void>; waitFor(): Promise<void> };
}

/**
 * Signs in through the sign-in screen exactly as a person does: e-mail and password, then the
 * code from the dev mailbox. Leaves the page wherever the app goes next.
 */
export async function signInInBrowser(page: SignInPage, baseUrl: string, email: string, password: string, options: { open?: boolean } = {}) {
  if (options.open !== false) await page.goto('/login');
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  const before = await latestMail(baseUrl, email);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const mail = await nextMail(baseUrl, email, before);
  await page.getByRole('heading', { level: 1, name: 'Enter your code' }).waitFor();
  // The code goes into six digit boxes; a complete code is sent at once.
  await page.getByLabel('Code, digit 1 of 6').fill(codeOf(mail));
}
