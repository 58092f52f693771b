import type { Browser, Page } from 'playwright-core';
import { deriveKey, encryptText } from '#src/lib/persistence/crypto.ts';
import { collectPageErrors, newContext } from './browser.ts';
import type { RunningServer } from './server.ts';
import { signInOverHttp } from './sign-in.ts';

export interface SignedInPage {
  page: Page;
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

/**
 * A browser tab of a signed-in user: the user signs in over HTTP with the e-mailed code, and
 * the tab carries that session — the bearer token on every API call and the user's
 * permissions in the saved state, as the app holds them after its own sign-in.
 */
export async function signedInPage(browser: Browser, server: RunningServer, user: { email: string; password: string }): Promise<SignedInPage> {
  const session = await signInOverHttp(server.url, user.email, user.password);
  const permissions = (await (
    await fetch(`${server.url}/api/personal/permissions`, { headers: { authorization: `Bearer ${session.token}` } })
  ).json()) as string[];
  const saved = await sealedState(server, { userPermissions: { permissions } });
  const context = await newContext(browser, server.url);
  await context.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, value);
  }, [saved.key, saved.value] as const);
  await context.route(/\/api\//, (route) => {
    const headers = route.request().headers();
    if (headers.authorization) return route.continue();
    return route.continue({ headers: { ...headers, authorization: `Bearer ${session.token}` } });
  });
  const page = await context.newPage();
  return { page, errors: collectPageErrors(page), close: () => context.close() };
}
