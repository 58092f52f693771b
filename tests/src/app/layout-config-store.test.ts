import { afterEach, describe, expect, it } from 'vitest';
import {
  applyLayoutToDocument,
  createLayoutConfigStore,
  defaultLayoutConfig,
  isFontFamily,
  layoutStorageKey,
  parseLayoutConfig,
  syncLayoutConfig,
  type LayoutConfig,
} from '#src/app/stores/layout-config-store.ts';

const chosen: LayoutConfig = {
  container: true,
  mode: 'dark',
  presetColor: 'theme5',
  themeDirection: 'rtl',
  miniDrawer: true,
  fontFamily: 'Georgia, serif',
};

let stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
  localStorage.clear();
  applyLayoutToDocument(defaultLayoutConfig);
});

function startSync(initial: LayoutConfig = defaultLayoutConfig) {
  const store = createLayoutConfigStore(initial);
  stops.push(syncLayoutConfig({ store, storage: localStorage, events: window, document }));
  return store;
}

/** What the browser delivers in this tab when another tab writes the key. */
function otherTabWrites(value: string | null, key: string | null = layoutStorageKey) {
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }));
}

describe('layout config store', () => {
  it('should take its defaults from the runtime configuration (spec §9 fallbacks)', () => {
    expect(defaultLayoutConfig).toEqual({
      container: false,
      mode: 'light',
      presetColor: 'default',
      themeDirection: 'ltr',
      miniDrawer: false,
      fontFamily: `'Public Sans', sans-serif`,
    });
    expect(layoutStorageKey).toBe('exam-portal-layout-config');
  });

  it('should keep valid stored fields and replace invalid ones with the defaults', () => {
    const parsed = parseLayoutConfig(
      JSON.stringify({ mode: 'dark', presetColor: 'theme9', themeDirection: 'up', miniDrawer: 'yes', container: true, fontFamily: 'x;}body{color:red' }),
    );
    expect(parsed).toEqual({ ...defaultLayoutConfig, mode: 'dark', container: true });
    expect(parseLayoutConfig('{not json')).toEqual(defaultLayoutConfig);
    expect(parseLayoutConfig(null)).toEqual(defaultLayoutConfig);
  });

  it('should accept font-family lists and refuse anything that could break out of the CSS value', () => {
    expect(isFontFamily(`'Public Sans', sans-serif`)).toBe(true);
    expect(isFontFamily('"Noto Sans Devanagari", system-ui')).toBe(true);
    expect(isFontFamily('serif; background: url(x)')).toBe(false);
    expect(isFontFamily('')).toBe(false);
    expect(isFontFamily('a'.repeat(201))).toBe(false);
  });

  it('should drop invalid fields of a change and keep the valid ones', () => {
    const store = createLayoutConfigStore(defaultLayoutConfig);
    store.trigger.change({ patch: { mode: 'dark', presetColor: 'purple' as never } });
    expect(store.getSnapshot().context).toEqual({ ...defaultLayoutConfig, mode: 'dark' });
    store.trigger.reset();
    expect(store.getSnapshot().context).toEqual(defaultLayoutConfig);
  });

  it('should mirror the config on <html>: dir, data-mode, data-preset, colour scheme and font', () => {
    applyLayoutToDocument(chosen);
    const html = document.documentElement;
    expect(html.dir).toBe('rtl');
    expect(html.dataset.mode).toBe('dark');
    expect(html.dataset.preset).toBe('theme5');
    expect(html.style.colorScheme).toBe('dark');
    expect(html.style.getPropertyValue('--app-font-family')).toBe("Georgia, 'Noto Sans Devanagari', 'Noto Sans Gujarati', serif");
  });

  it('should apply and save every change when synced', () => {
    const store = startSync();
    expect(document.documentElement.dataset.mode).toBe('light');
    store.trigger.change({ patch: { mode: 'dark', presetColor: 'theme3' } });
    expect(document.documentElement.dataset.mode).toBe('dark');
    expect(document.documentElement.dataset.preset).toBe('theme3');
    expect(JSON.parse(localStorage.getItem(layoutStorageKey)!)).toEqual({ ...defaultLayoutConfig, mode: 'dark', presetColor: 'theme3' });
  });

  it('should follow a change another tab saved, without a reload', () => {
    const store = startSync();
    otherTabWrites(JSON.stringify(chosen));
    expect(store.getSnapshot().context).toEqual(chosen);
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.dataset.preset).toBe('theme5');
  });

  it('should go back to the defaults when another tab removes the key or clears the storage', () => {
    const store = startSync(chosen);
    otherTabWrites(null);
    expect(store.getSnapshot().context).toEqual(defaultLayoutConfig);
    store.trigger.change({ patch: { mode: 'dark' } });
    otherTabWrites(null, null);
    expect(store.getSnapshot().context).toEqual(defaultLayoutConfig);
  });

  it('should ignore other keys and stop following once stopped', () => {
    const store = startSync();
    otherTabWrites(JSON.stringify(chosen), 'exam-portal-something-else');
    expect(store.getSnapshot().context).toEqual(defaultLayoutConfig);
    stops.pop()!();
    otherTabWrites(JSON.stringify(chosen));
    expect(store.getSnapshot().context).toEqual(defaultLayoutConfig);
    store.trigger.change({ patch: { mode: 'dark' } });
    expect(localStorage.getItem(layoutStorageKey)).toBeNull();
  });
});
