import type { i18n as I18n } from 'i18next';
import { localizationStore as defaultLocalizationStore } from '#src/app/stores/localization-store.ts';
import { appConfig, defaultConfig, type Locale } from '#src/lib/config.ts';
import { i18n as defaultI18n, initI18n, isLocale } from './i18n.ts';
import './script-fonts.ts';

/**
 * Which language the UI speaks, and switching it at run time.
 *
 * The localization slice (`localization.i18n`) is the source of truth: the settings panel
 * writes the chosen code there (chooseLanguage), and startLanguageSync follows the slice —
 * it switches i18next (which loads that language's namespaces), sets <html lang>, and puts
 * `null` in the slice when the language cannot be loaded. With nothing chosen, the runtime
 * configuration's `i18n` applies (fallback en-IN, spec §9).
 */

type LocalizationStore = Pick<typeof defaultLocalizationStore, 'getSnapshot' | 'subscribe' | 'trigger'>;

export interface LanguageDeps {
  i18n: I18n;
  store: LocalizationStore;
  configured: Locale;
  document?: Document;
}

/** The language to show: the stored choice, else the configured default, else en-IN. */
export function resolveLanguage(stored: Locale | null | undefined, configured: Locale | undefined = appConfig.i18n): Locale {
  if (isLocale(stored)) return stored;
  return isLocale(configured) ? configured : defaultConfig.i18n;
}

/** i18next reported an error, or the language's common namespace is still missing. */
export class LanguageLoadError extends Error {
  override name = 'LanguageLoadError';
}

/** Switches i18next to `language` (loading every namespace in use) and marks <html lang>. */
export function applyLanguage(language: Locale, { i18n, document: doc = globalThis.document }: Pick<LanguageDeps, 'i18n' | 'document'>): Promise<void> {
  return new Promise((resolve, reject) => {
    void i18n.changeLanguage(language, (error: unknown) => {
      const failed = (Array.isArray(error) ? error.length > 0 : Boolean(error)) || !i18n.hasResourceBundle(language, 'common');
      if (failed || i18n.language !== language) {
        reject(new LanguageLoadError(`Could not load the ${language} translations`, { cause: error }));
        return;
      }
      if (doc) doc.documentElement.lang = language;
      resolve();
    });
  });
}

/** Settings panel: record the user's choice; startLanguageSync applies it. */
export function chooseLanguage(language: Locale, store: LocalizationStore = defaultLocalizationStore) {
  store.trigger.update({ i18n: language });
}

/**
 * Follows the localization slice: applies the resolved language now and after every change of
 * `localization.i18n` (the settings panel, or the persisted slice arriving after start-up).
 * A language that fails to load sets the slice to null (spec §4), so the configured default
 * takes over. Returns the function that stops following.
 */
export function followLanguage(deps: LanguageDeps): () => void {
  let requested: Locale | null | undefined;
  let latest = 0;
  const sync = () => {
    const stored = deps.store.getSnapshot().context.i18n;
    if (stored === requested) return;
    requested = stored;
    const language = resolveLanguage(stored, deps.configured);
    const run = ++latest;
    // At start-up the language was usually just loaded: nothing to load, no re-render. (Later
    // requests always go through i18next, so a newer choice wins over one still loading.)
    if (run === 1 && deps.i18n.language === language && deps.i18n.hasResourceBundle(language, 'common')) {
      const doc = deps.document ?? globalThis.document;
      if (doc) doc.documentElement.lang = language;
      return;
    }
    applyLanguage(language, deps).catch((error: unknown) => {
      // A request overtaken by a newer one fails by design (i18next drops it): not a failure.
      if (run !== latest) return;
      console.warn('Language change failed', language, error);
      if (stored !== null) deps.store.trigger.failure();
    });
  };
  sync();
  const subscription = deps.store.subscribe(sync);
  return () => subscription.unsubscribe();
}

let stop: (() => void) | undefined;

/**
 * Start-up (src/main.tsx): starts i18next on the resolved language, marks <html lang>, then
 * follows the localization slice. Resolves once the first language is ready to render.
 */
export async function startLanguageSync(): Promise<void> {
  if (stop) return;
  const store = defaultLocalizationStore;
  const first = resolveLanguage(store.getSnapshot().context.i18n, appConfig.i18n);
  if (!defaultI18n.isInitialized) await initI18n(first);
  document.documentElement.lang = defaultI18n.language;
  stop = followLanguage({ i18n: defaultI18n, store, configured: appConfig.i18n });
}
