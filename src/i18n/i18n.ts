import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { appConfig, locales, type Locale } from '#src/lib/config.ts';
// The fallback language's shell strings ship with the app, so the error screen can always render.
import fallbackCommon from './locales/en-IN/common.json';

/**
 * Translations live in `locales/<language>/<namespace>.json`, one namespace per feature
 * (so features never edit each other's files). Only the active language's namespaces are
 * fetched, each as its own small chunk.
 */
export const namespaces = ['common'] as const;
export type Namespace = (typeof namespaces)[number] | (string & {});

// The bundled fallback is excluded here so it is not also split into a chunk of its own.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>(['./locales/*/*.json', '!./locales/en-IN/common.json']);

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (language === 'en-IN' && namespace === 'common') {
      callback(null, fallbackCommon);
      return;
    }
    const load = loaders[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No translations for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error as Error, false),
    );
  },
};

/**
 * Loads these namespaces of the language i18next runs on, once it has started: a route fetches
 * its page's namespaces with its code (issue 22), where the page would otherwise suspend on
 * each in turn as its parts render. Names with no translation file are left out; a namespace
 * that fails to load is left to the page (it suspends and asks again, as before).
 */
export function preloadNamespaces(wanted: readonly string[]): Promise<void> {
  const known = wanted.filter((namespace) => namespace === 'common' || `./locales/en-IN/${namespace}.json` in loaders);
  const load = () =>
    i18n.loadNamespaces(known).then(
      () => undefined,
      () => undefined,
    );
  if (i18n.isInitialized) return load();
  // The router's first navigation starts while the app's code loads, before i18next has: the
  // namespaces are asked for as soon as it starts, and the route does not wait for them (a
  // page that renders first suspends on a request already under way).
  const started = () => {
    i18n.off('initialized', started);
    void load();
  };
  i18n.on('initialized', started);
  return Promise.resolve();
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

export const i18n = i18next.createInstance();

/** Starts i18next on the given language; resolves once its common namespace is loaded. */
export function initI18n(language: Locale = appConfig.i18n) {
  return i18n
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: 'en-IN',
      supportedLngs: [...locales],
      ns: ['common'],
      defaultNS: 'common',
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
      returnNull: false,
      partialBundledLanguages: true,
      resources: { 'en-IN': { common: fallbackCommon } },
    });
}
