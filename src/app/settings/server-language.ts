import { authUserStore, hasSession } from '#src/app/auth/auth-user-store.ts';
import { chooseLanguage } from '#src/i18n/language.ts';
import { isLocale } from '#src/i18n/i18n.ts';
import type { Locale } from '#src/lib/config.ts';
import { serviceApi } from '#src/lib/http/api.ts';

/**
 * The language kept on the server (issue 21, docs/decisions/0261): saved when a signed-in
 * person picks one, applied when they sign in on any device.
 */
export function saveLanguageOnServer(language: Locale | null): Promise<void> {
  if (!hasSession(authUserStore.getSnapshot().context)) return Promise.resolve();
  return serviceApi('userService')
    .put('/v1/profile/language', { language }, { showErrors: false })
    .then(
      () => undefined,
      (error: unknown) => console.warn('The language could not be saved on the server', error),
    );
}

/** The sign-in answer's `preferredLanguage`, when it names a language this client has. */
export function applySignInLanguage(answer: { preferredLanguage?: string | null }): void {
  if (isLocale(answer.preferredLanguage)) chooseLanguage(answer.preferredLanguage);
}

/** Picking a language in the settings panel: here at once, and on the server for the next sign-in. */
export function chooseAndSaveLanguage(language: Locale): void {
  chooseLanguage(language);
  void saveLanguageOnServer(language);
}
