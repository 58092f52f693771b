import { createStore } from '@xstate/store';
import { appConfig, locales, presetColors, type PresetColor, type ThemeDirection, type ThemeMode } from '#src/lib/config.ts';
import { appFontStack } from '#src/fonts/font-stack.ts';

/** The layout config of spec §4: kept in plain localStorage and synced across tabs. */
export interface LayoutConfig {
  container: boolean;
  mode: ThemeMode;
  presetColor: PresetColor;
  themeDirection: ThemeDirection;
  miniDrawer: boolean;
  fontFamily: string;
}

export const defaultLayoutConfig: LayoutConfig = {
  container: appConfig.container,
  mode: appConfig.mode,
  presetColor: appConfig.presetColor,
  themeDirection: appConfig.themeDirection,
  miniDrawer: appConfig.miniDrawer,
  fontFamily: appConfig.fontFamily,
};

export const layoutStorageKey = `${appConfig.productKey}-layout-config`;

/** A CSS font-family list: names, quotes, commas, spaces and hyphens only (it lands in a CSS variable). */
export function isFontFamily(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= 200 && /^[\p{L}\p{N} ,'"_-]+$/u.test(value);
}

/** Reads a stored layout config, keeping only valid fields over the defaults. */
export function parseLayoutConfig(raw: string | null, defaults: LayoutConfig = defaultLayoutConfig): LayoutConfig {
  if (!raw) return defaults;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof LayoutConfig, unknown>>;
    return {
      container: typeof value.container === 'boolean' ? value.container : defaults.container,
      mode: value.mode === 'dark' || value.mode === 'light' ? value.mode : defaults.mode,
      presetColor: (presetColors as readonly unknown[]).includes(value.presetColor) ? (value.presetColor as PresetColor) : defaults.presetColor,
      themeDirection: value.themeDirection === 'rtl' || value.themeDirection === 'ltr' ? value.themeDirection : defaults.themeDirection,
      miniDrawer: typeof value.miniDrawer === 'boolean' ? value.miniDrawer : defaults.miniDrawer,
      fontFamily: isFontFamily(value.fontFamily) ? value.fontFamily : defaults.fontFamily,
    };
  } catch {
    return defaults;
  }
}

function readStored(): LayoutConfig {
  try {
    return parseLayoutConfig(globalThis.localStorage?.getItem(layoutStorageKey) ?? null);
  } catch {
    return defaultLayoutConfig;
  }
}

export function createLayoutConfigStore(initial: LayoutConfig = readStored(), defaults: LayoutConfig = defaultLayoutConfig) {
  return createStore({
    context: initial,
    on: {
      // Invalid fields in a patch are dropped (the current value stays).
      change: (context, event: { patch: Partial<LayoutConfig> }) => parseLayoutConfig(JSON.stringify({ ...context, ...event.patch }), context),
      /** Another tab changed the stored config. */
      replace: (_context, event: { config: LayoutConfig }) => event.config,
      reset: () => defaults,
    },
  });
}

export type LayoutConfigStore = ReturnType<typeof createLayoutConfigStore>;
export const layoutConfigStore = createLayoutConfigStore();

/** Mirrors the layout config on <html> so CSS (Panda conditions) and the browser follow it. */
export function applyLayoutToDocument(config: LayoutConfig, doc: Document = document) {
  const html = doc.documentElement;
  html.dir = config.themeDirection;
  html.dataset.mode = config.mode;
  html.dataset.preset = config.presetColor;
  html.style.setProperty('--app-font-family', appFontStack(config.fontFamily));
  html.style.colorScheme = config.mode;
}

export interface LayoutSyncTarget {
  store: LayoutConfigStore;
  storage: Storage;
  /** The window whose `storage` events report changes made by other tabs. */
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  document: Document;
  key?: string;
  defaults?: LayoutConfig;
}

/**
 * Applies the config to the page now and on every change, saves every change, and follows
 * changes other tabs save (the `storage` event fires only in the other tabs). Returns the
 * function that stops all of it.
 */
export function syncLayoutConfig({ store, storage, events, document: doc, key = layoutStorageKey, defaults = defaultLayoutConfig }: LayoutSyncTarget) {
  applyLayoutToDocument(store.getSnapshot().context, doc);
  const subscription = store.subscribe((snapshot) => {
    applyLayoutToDocument(snapshot.context, doc);
    const serialised = JSON.stringify(snapshot.context);
    try {
      if (storage.getItem(key) !== serialised) storage.setItem(key, serialised);
    } catch {
      // Storage full or blocked: the choice still applies to this tab.
    }
  });
  const onStorage = (event: StorageEvent) => {
    // key null: the other tab cleared the whole storage.
    if (event.key !== key && event.key !== null) return;
    const next = parseLayoutConfig(event.key === null ? null : event.newValue, defaults);
    if (JSON.stringify(next) !== JSON.stringify(store.getSnapshot().context)) store.trigger.replace({ config: next });
  };
  events.addEventListener('storage', onStorage);
  return () => {
    subscription.unsubscribe();
    events.removeEventListener('storage', onStorage);
  };
}

let started = false;
/** Start-up (src/main.tsx): the app's layout config follows localStorage and other tabs. */
export function startLayoutConfigSync() {
  if (started) return;
  started = true;
  syncLayoutConfig({ store: layoutConfigStore, storage: localStorage, events: window, document });
}

export { locales };
