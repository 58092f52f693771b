import type { Browser, BrowserContext, Page } from 'playwright-core';
import { deriveKey, encryptText } from '#src/lib/persistence/crypto.ts';
import { collectPageErrors, newContext } from './browser.ts';
import type { RunningServer } from './server.ts';
import { signInOverHttp } from './sign-in.ts';

export interface SignedInPage {
  page: Page;
  /** The session's access token, for setting the scene over HTTP. */
  token: string;
  errors: string[];
  close(): Promise<void>;
}

/** The runtime configuration the server hands the SPA (`/config.js`). */
export async function runtimeConfig(server: RunningServer): Promise<{ persistSecret: string; productKey: string }> {
  const script = await (await fetch(`${server.url}/config.js`)).text();
  return JSON.parse(script.replace(/^window\.__APP_CONFIG__ = /, '').replace(/;\s*$/, ''));
}

/** Saved state as a browser would hold it, sealed in Node with the app's own scheme. */
export async function sealedState(server: RunningServer, slices: Record<string, unknown>, secret?: string): Promise<{ key: string; value: string }> {
  const runtime = await runtimeConfig(server);
  const key = await deriveKey(secret ?? runtime.persistSecret, runtime.productKey, crypto.subtle);
  const root: Record<string, string> = {};
  for (const [name, value] of Object.entries(slices)) root[name] = await encryptText(key, JSON.stringify(value), `${runtime.productKey}:${name}`, crypto.subtle);
  return { key: `${runtime.productKey}:state`, value: JSON.stringify(root) };
}

const sessions = new Map<string, Promise<{ token: string; permissions: string[] }>>();

/** One sign-in per user and server, shared by every tab of the test file (codes are rate limited). */
function sessionOf(server: RunningServer, user: { email: string; password: string }) {
  const key = `${server.url} ${user.email}`;
  let session = sessions.get(key);
  if (!session) {
    session = (async () => {
      const { token } = await signInOverHttp(server.url, user.email, user.password);
      const res = await fetch(`${server.url}/api/personal/permissions`, { headers: { authorization: `Bearer ${token}` } });
      return { token, permissions: (await res.json()) as string[] };
    })();
    sessions.set(key, session);
  }
  return session;
}

/**
 * Makes every tab of a browser context carry a signed-in user's session, as the app holds it
 * after its own sign-in: the bearer token on every API call and the user's permissions in the
 * saved state. The user signs in over HTTP with the e-mailed code.
 */
export async function signInContext(context: BrowserContext, server: RunningServer, user: { email: string; password: string }): Promise<string> {
  const { token, permissions } = await sessionOf(server, user);
  const saved = await sealedState(server, { userPermissions: { permissions } });
  await context.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, value);
  }, [saved.key, saved.value] as const);
  await context.route(/\/api\//, (route) => {
    const headers = route.request().headers();
    if (headers.authorization) return route.continue();
    return route.continue({ headers: { ...headers, authorization: `Bearer ${token}` } });
  });
  return token;
}

/** A browser tab of a signed-in user (see signInContext). */
export async function signedInPage(browser: Browser, server: RunningServer, user: { email: string; password: string }): Promise<SignedInPage> {
  const context = await newContext(browser, server.url);
  const token = await signInContext(context, server, user);
  const page = await context.newPage();
  return { page, token, errors: collectPageErrors(page), close: () => context.close() };
}
