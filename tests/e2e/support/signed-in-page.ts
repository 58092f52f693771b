import type { Browser, BrowserContext, Page } from 'playwright-core';
import { deriveKey, encryptText } from '#src/lib/persistence/crypto.ts';
import { collectPageErrors, newContext } from './browser.ts';
import type { RunningServer } from './server.ts';
import { emptySession, userFromToken, type AuthSession } from '#machines/auth-session.machine.ts';
import { signInOverHttp, type HttpSession } from './sign-in.ts';

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
  for (const [name, value] of Object.entries(slices))
    root[name] = await encryptText(key, JSON.stringify(value), `${runtime.productKey}:${name}`, crypto.subtle);
  return { key: `${runtime.productKey}:state`, value: JSON.stringify(root) };
}

const sessions = new Map<string, Promise<{ session: HttpSession; permissions: string[] }>>();

/** One sign-in per user and server, shared by every tab of the test file (codes are rate limited). */
function sessionOf(server: RunningServer, user: { email: string; password: string }) {
  const key = `${server.url} ${user.email}`;
  let session = sessions.get(key);
  if (!session) {
    session = (async () => {
      const session = await signInOverHttp(server.url, user.email, user.password);
      const res = await fetch(`${server.url}/api/personal/permissions`, { headers: { authorization: `Bearer ${session.token}` } });
      return { session, permissions: (await res.json()) as string[] };
    })();
    sessions.set(key, session);
  }
  return session;
}

/**
 * Makes every tab of a browser context open as a returning visitor whose session the app saved:
 * the user signs in over HTTP with the e-mailed code (once per server and user, since codes are
 * rate limited), and the context starts with the authUser and userPermissions slices the app
 * itself keeps after sign-in (spec §4 "Persistence"). The app then sends its own token,
 * refreshes it and signs out as it always does. The sign-in screens have their own tests
 * (tests/e2e/auth-*.test.ts).
 */
export async function signInContext(context: BrowserContext, server: RunningServer, user: { email: string; password: string }): Promise<string> {
  const { token, saved } = await savedSession(server, user);
  await context.addInitScript(
    ([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    },
    [saved.key, saved.value] as const,
  );
  return token;
}

/**
 * The saved state (storage key and sealed value) of a user who signed in over HTTP, as the app
 * keeps it after its own sign-in: the authUser and userPermissions slices. For a browser that
 * is not a Playwright context (the Lighthouse and profile benches put it in place themselves).
 */
export async function savedSession(server: RunningServer, user: { email: string; password: string }) {
  const { session, permissions } = await sessionOf(server, user);
  const authUser: AuthSession = {
    ...emptySession,
    isLoggedIn: true,
    authenticated: true,
    token: session.token,
    refreshToken: session.refreshToken,
    refreshTokenExpiryTime: session.refreshTokenExpiryTime,
    user: userFromToken(session.token),
  };
  return { token: session.token, saved: await sealedState(server, { authUser, userPermissions: { permissions } }) };
}

/** A browser tab of a signed-in user (see signInContext). */
export async function signedInPage(browser: Browser, server: RunningServer, user: { email: string; password: string }): Promise<SignedInPage> {
  const context = await newContext(browser, server.url);
  const token = await signInContext(context, server, user);
  const page = await context.newPage();
  return { page, token, errors: collectPageErrors(page), close: () => context.close() };
}
