import i18next, { type BackendModule } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalizationStore } from '#src/app/stores/localization-store.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { applyLanguage, chooseLanguage, followLanguage, LanguageLoadError, resolveLanguage } from '#src/i18n/language.ts';

beforeAll(async () => {
  await initI18n('en-IN');
});

let stops: Array<() => void> = [];
afterEach(async () => {
  for (const stop of stops) stop();
  stops = [];
  await i18n.changeLanguage('en-IN');
  vi.restoreAllMocks();
});

/** Resolves once i18next has switched to `language` (or rejects after 5 s). */
function languageChanged(instance: typeof i18n, language: string) {
  return vi.waitFor(() => expect(instance.language).toBe(language), { timeout: 5000 });
}

describe('resolveLanguage', () => {
  it('should prefer the stored choice, then the configured default, then en-IN', () => {
    expect(resolveLanguage('gu', 'fr')).toBe('gu');
    expect(resolveLanguage(null, 'fr')).toBe('fr');
    expect(resolveLanguage(null, undefined)).toBe('en-IN');
    expect(resolveLanguage('de' as never, 'xx' as never)).toBe('en-IN');
  });
});

describe('applyLanguage', () => {
  it('should switch i18next, load the language and mark <html lang>', async () => {
    await applyLanguage('fr', { i18n, document });
    expect(i18n.language).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(i18n.t('shell.home')).toBe('Accueil');
  });

  it('should load the namespaces already in use for the new language', async () => {
    await i18n.loadNamespaces('settings');
    await applyLanguage('hi', { i18n, document });
    expect(i18n.t('title', { ns: 'settings' })).toBe('थीम सेटिंग्स');
    expect(i18n.t('nav.dashboard')).toBe('डैशबोर्ड');
  });
});

describe('followLanguage', () => {
  it('should apply the configured language while nothing is chosen, then the choice', async () => {
    const store = createLocalizationStore();
    stops.push(followLanguage({ i18n, store, configured: 'es', document }));
    await languageChanged(i18n, 'es');
    expect(document.documentElement.lang).toBe('es');
    chooseLanguage('gu', store);
    expect(store.getSnapshot().context.i18n).toBe('gu');
    await languageChanged(i18n, 'gu');
    expect(i18n.t('shell.home')).toBe('હોમ');
    expect(document.documentElement.lang).toBe('gu');
  });

  it('should follow the slice when the persisted choice arrives after start-up', async () => {
    const store = createLocalizationStore();
    stops.push(followLanguage({ i18n, store, configured: 'en-IN', document }));
    await languageChanged(i18n, 'en-IN');
    store.trigger.update({ i18n: 'en-US' });
    await languageChanged(i18n, 'en-US');
    store.trigger.reset();
    await languageChanged(i18n, 'en-IN');
  });

  it('should put null in the slice and fall back to the configured language when a language cannot load', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing: BackendModule = {
      type: 'backend',
      init() {},
      read(language, _namespace, callback) {
        if (language === 'fr') callback(new Error('offline'), false);
        else callback(null, { greeting: `hello in ${language}` });
      },
    };
    const instance = i18next.createInstance();
    await instance.use(failing).init({ lng: 'en-IN', fallbackLng: 'en-IN', supportedLngs: ['en-IN', 'en-US', 'fr'], ns: ['common'], defaultNS: 'common' });
    const store = createLocalizationStore();
    const doc = document.implementation.createHTMLDocument('other');
    stops.push(followLanguage({ i18n: instance, store, configured: 'en-US', document: doc }));
    await languageChanged(instance, 'en-US');

    chooseLanguage('fr', store);
    await vi.waitFor(() => expect(store.getSnapshot().context.i18n).toBeNull(), { timeout: 5000 });
    await languageChanged(instance, 'en-US');
    expect(doc.documentElement.lang).toBe('en-US');
    expect(instance.t('greeting')).toBe('hello in en-US');
    await expect(applyLanguage('fr', { i18n: instance, document: doc })).rejects.toBeInstanceOf(LanguageLoadError);
  });
});

describe('quick changes', () => {
  it('should end on the last choice when an earlier one is still loading', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const slow: BackendModule = {
      type: 'backend',
      init() {},
      read(language, _namespace, callback) {
        setTimeout(() => callback(null, { greeting: `hello in ${language}` }), language === 'fr' ? 60 : 0);
      },
    };
    const instance = i18next.createInstance();
    await instance.use(slow).init({ lng: 'en-IN', fallbackLng: 'en-IN', supportedLngs: ['en-IN', 'fr'], ns: ['common'], defaultNS: 'common' });
    const store = createLocalizationStore();
    const doc = document.implementation.createHTMLDocument('other');
    stops.push(followLanguage({ i18n: instance, store, configured: 'en-IN', document: doc }));
    expect(doc.documentElement.lang).toBe('en-IN');

    chooseLanguage('fr', store);
    chooseLanguage('en-IN', store);
    // Give the French load every chance to finish and (wrongly) win.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(instance.language).toBe('en-IN');
    expect(doc.documentElement.lang).toBe('en-IN');
    expect(instance.t('greeting')).toBe('hello in en-IN');
    expect(store.getSnapshot().context.i18n).toBe('en-IN');
    // The overtaken French request is not reported as a failure.
    expect(warn).not.toHaveBeenCalled();
  });
});
