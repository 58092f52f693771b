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
