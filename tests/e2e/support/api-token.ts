import type { BrowserContext, Page } from 'playwright-core';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import type { RunningServer } from './server.ts';
import { signInOverHttp } from './sign-in.ts';

/**
 * Until the sign-in screens exist in this tree, a page is "signed in" by adding a real access
 * token (signed in over HTTP with the e-mailed code) to its API calls. One sign-in per server
 * and account, so repeated visits stay under the per-account code limits.
 */
const tokens = new Map<string, Promise<string>>();

export function accessToken(server: RunningServer, email = TEST_ADMIN_EMAIL, password = TEST_ADMIN_PASSWORD): Promise<string> {
  const key = `${server.url} ${email}`;
  let token = tokens.get(key);
  if (!token) {
    token = signInOverHttp(server.url, email, password).then((session) => session.token);
    tokens.set(key, token);
  }
  return token;
}

export async function authorizeApiCalls(target: Page | BrowserContext, token: string) {
  await target.route('**/api/**', (route) => route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${token}` } }));
}
