import { createStore } from '@xstate/store';
import { appConfig, locales, presetColors, type PresetColor, type ThemeDirection, type ThemeMode } from '#src/lib/config.ts';

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

/** Reads a stored layout config, keeping only valid fields over the defaults. */
export function parseLayoutConfig(raw: string | null, defaults: LayoutConfig = defaultLayoutConfig): LayoutConfig {
  if (!raw) return defaults;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof LayoutConfig, unknown>>;
    return {
      container: typeof value.container === 'boolean' ? value.container : defaults.container,
      mode: value.mode === 'dark' || value.mode === 'light' ? value.mode : defaults.mode,
      presetColor: (presetColors as readonly unknown[]).includes(value.presetColor)
        ? (value.presetColor as PresetColor)
        : defaults.presetColor,
      themeDirection: value.themeDirection === 'rtl' || value.themeDirection === 'ltr' ? value.themeDirection : defaults.themeDirection,
      miniDrawer: typeof value.miniDrawer === 'boolean' ? value.miniDrawer : defaults.miniDrawer,
      fontFamily: typeof value.fontFamily === 'string' && value.fontFamily ? value.fontFamily : defaults.fontFamily,
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

export const layoutConfigStore = createStore({
  context: readStored(),
  on: {
    change: (context, event: { patch: Partial<LayoutConfig> }) => ({ ...context, ...event.patch }),
    /** Another tab changed the stored config. */
    replace: (_context, event: { config: LayoutConfig }) => event.config,
    reset: () => defaultLayoutConfig,
  },
});

/** Mirrors the layout config on <html> so CSS (Panda conditions) and the browser follow it. */
export function applyLayoutToDocument(config: LayoutConfig, doc: Document = document) {
  const html = doc.documentElement;
  html.dir = config.themeDirection;
  html.dataset.mode = config.mode;
  html.dataset.preset = config.presetColor;
  html.style.setProperty('--app-font-family', config.fontFamily);
  html.style.colorScheme = config.mode;
}

let started = false;
/** Saves every change, applies it to the page, and follows changes made in other tabs. */
export function startLayoutConfigSync() {
  if (started) return;
  started = true;
  applyLayoutToDocument(layoutConfigStore.getSnapshot().context);
  layoutConfigStore.subscribe((snapshot) => {
    applyLayoutToDocument(snapshot.context);
    const serialised = JSON.stringify(snapshot.context);
    try {
      if (localStorage.getItem(layoutStorageKey) !== serialised) localStorage.setItem(layoutStorageKey, serialised);
    } catch {
      // Storage full or blocked: the choice still applies to this tab.
    }
  });
  window.addEventListener('storage', (event) => {
    if (event.key !== layoutStorageKey) return;
    layoutConfigStore.trigger.replace({ config: parseLayoutConfig(event.newValue) });
  });
}

export { locales };
