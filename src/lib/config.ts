/**
 * The runtime configuration object (ARCHITECTURE.md §5) that `/config.js` puts on the page
 * before the app loads. One build serves every deployment; missing values fall back to the
 * defaults of spec §9.
 */
export const serviceKeys = [
  'userService',
  'projectService',
  'paperService',
  'examService',
  'registrationService',
  'itemService',
  'categoryService',
  'logisticsService',
  'telemetryService',
  'resultService',
  'centerService',
  'notificationService',
] as const;
export type ServiceKey = (typeof serviceKeys)[number];

export const presetColors = ['default', 'theme1', 'theme2', 'theme3', 'theme4', 'theme5', 'theme6', 'theme7', 'theme8'] as const;
export type PresetColor = (typeof presetColors)[number];
export const locales = ['en-IN', 'en-US', 'fr', 'es', 'hi', 'gu'] as const;
export type Locale = (typeof locales)[number];
export type ThemeMode = 'light' | 'dark';
export type ThemeDirection = 'ltr' | 'rtl';

export interface AppConfig extends Record<ServiceKey, string> {
  fontFamily: string;
  i18n: Locale;
  mode: ThemeMode;
  presetColor: PresetColor;
  themeDirection: ThemeDirection;
  miniDrawer: boolean;
  container: boolean;
  defaultPath: string;
  persistSecret: string;
  productKey: string;
  version: string;
  /** The server has an enterprise directory (LDAP_URL): directory import is offered (issue 23). */
  directoryConfigured: boolean;
}

declare global {
  interface Window {
    __APP_CONFIG__?: Partial<AppConfig>;
  }
}

/** The version this bundle was built as (package.json), compared with /meta.json. */
export const APP_VERSION = '1.2.253';

export const defaultConfig: AppConfig = {
  ...(Object.fromEntries(serviceKeys.map((key) => [key, '/api'])) as Record<ServiceKey, string>),
  fontFamily: `'Public Sans', sans-serif`,
  i18n: 'en-IN',
  mode: 'light',
  presetColor: 'default',
  themeDirection: 'ltr',
  miniDrawer: false,
  container: false,
  defaultPath: '/',
  persistSecret: '',
  productKey: 'exam-portal',
  version: APP_VERSION,
  directoryConfigured: false,
};

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** Reads and sanitises the runtime configuration; never throws. */
export function readConfig(source: Partial<AppConfig> | undefined = globalThis.window?.__APP_CONFIG__): AppConfig {
  const raw = (source ?? {}) as Record<string, unknown>;
  const text = (key: keyof AppConfig, fallback: string) => (typeof raw[key] === 'string' && (raw[key] as string).length > 0 ? (raw[key] as string) : fallback);
  return {
    ...(Object.fromEntries(serviceKeys.map((key) => [key, text(key, defaultConfig[key])])) as Record<ServiceKey, string>),
    fontFamily: text('fontFamily', defaultConfig.fontFamily),
    i18n: pick(raw.i18n, locales, defaultConfig.i18n),
    mode: pick(raw.mode, ['light', 'dark'] as const, defaultConfig.mode),
    presetColor: pick(raw.presetColor, presetColors, defaultConfig.presetColor),
    themeDirection: pick(raw.themeDirection, ['ltr', 'rtl'] as const, defaultConfig.themeDirection),
    miniDrawer: typeof raw.miniDrawer === 'boolean' ? raw.miniDrawer : defaultConfig.miniDrawer,
    container: typeof raw.container === 'boolean' ? raw.container : defaultConfig.container,
    defaultPath: text('defaultPath', defaultConfig.defaultPath),
    persistSecret: text('persistSecret', defaultConfig.persistSecret),
    productKey: text('productKey', defaultConfig.productKey),
    version: text('version', defaultConfig.version),
    directoryConfigured: raw.directoryConfigured === true,
  };
}

/** Whether the page received a runtime configuration at all (persistence reports its absence). */
export function hasRuntimeConfig(): boolean {
  return typeof globalThis.window?.__APP_CONFIG__ === 'object' && globalThis.window.__APP_CONFIG__ !== null;
}

export const appConfig: AppConfig = readConfig();
