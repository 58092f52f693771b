import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey, encryptText } from '#src/lib/persistence/crypto.ts';
import { collectPageErrors, launchBrowser, newContext } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let runtime: { persistSecret: string; productKey: string };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const script = await (await fetch(`${server.url}/config.js`)).text();
  runtime = JSON.parse(script.replace(/^window\.__APP_CONFIG__ = /, '').replace(/;\s*$/, ''));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

const storageKey = () => `${runtime.productKey}:state`;

/** The saved state a browser would hold, sealed here in Node with the same scheme. */
async function sealedState(slices: Record<string, unknown>, secret = runtime.persistSecret) {
  const key = await deriveKey(secret, runtime.productKey, crypto.subtle);
  const root: Record<string, string> = {};
  for (const [name, value] of Object.entries(slices))
    root[name] = await encryptText(key, JSON.stringify(value), `${runtime.productKey}:${name}`, crypto.subtle);
  return JSON.stringify(root);
}

/** Opens the app with `stored` already in local storage, as a returning visitor. */
async function openWithStored(stored: string): Promise<{ page: Page; warnings: string[]; errors: string[] }> {
  const context = await newContext(browser, server.url);
  await context.addInitScript(
    ([key, value]) => {
      if (sessionStorage.getItem('e2e-seeded')) return;
      localStorage.setItem(key, value);
      sessionStorage.setItem('e2e-seeded', '1');
    },
    [storageKey(), stored] as const,
  );
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  const errors = collectPageErrors(page);
  await page.goto('/');
  return { page, warnings, errors };
}

const stored = (page: Page) => page.evaluate((key) => localStorage.getItem(key), storageKey());

describe('encrypted persistence in the browser', () => {
  it('should restore saved state before the first render (the saved language renders the first screen)', async () => {
    const state = await sealedState({ localization: { i18n: 'fr' }, project: { selected: { projectId: 42 }, refresh: false } });
    const { page, warnings, errors } = await openWithStored(state);
    await page.getByRole('heading', { level: 1, name: 'Tableau de bord' }).waitFor();
    // The same slices stay; state sealed with the secret alone is sealed again with this
    // browser's own key as well (docs/decisions/0100), so the stored text changes.
    const kept = JSON.parse((await stored(page)) ?? 'null') as Record<string, string>;
    expect(Object.keys(kept).sort()).toEqual(Object.keys(JSON.parse(state) as object).sort());
    expect(warnings.filter((w) => w.startsWith('[persistence]'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('should start clean, say why and drop the store when it was sealed with another key', async () => {
    const { page, warnings } = await openWithStored(await sealedState({ localization: { i18n: 'fr' } }, 'a-key-from-another-deployment'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(warnings).toContain('[persistence] localization: Could not decrypt state. Please verify that you are using the correct secret key.');
    expect(await stored(page)).toBeNull();
    await page.context().close();
  });

  it('should start clean when the stored JSON is truncated', async () => {
    const state = await sealedState({ localization: { i18n: 'fr' } });
    const { page, warnings } = await openWithStored(state.slice(0, -9));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(warnings).toContain('[persistence] Failed to parse state as JSON.');
    expect(await stored(page)).toBeNull();
    await page.context().close();
  });

  it('should start clean when a slice was stored unencrypted', async () => {
    const { page, warnings } = await openWithStored(JSON.stringify({ localization: { i18n: 'fr' } }));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(warnings).toContain('[persistence] localization: Expected outbound state to be a string.');
    expect(await stored(page)).toBeNull();
    await page.context().close();
  });
});
