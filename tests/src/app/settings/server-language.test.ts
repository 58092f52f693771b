import { afterEach, describe, expect, it } from 'vitest';
import { localizationStore } from '#src/app/stores/localization-store.ts';
import { applySignInLanguage } from '#src/app/settings/server-language.ts';

afterEach(() => localizationStore.trigger.reset());

describe('the language kept on the server (issue 21)', () => {
  it('should switch to the language the sign-in answer names, on any device', () => {
    localizationStore.trigger.update({ i18n: 'en-US' });
    applySignInLanguage({ preferredLanguage: 'gu' });
    expect(localizationStore.getSnapshot().context.i18n).toBe('gu');
  });

  it('should keep the current language when the answer names none or one this client does not have', () => {
    localizationStore.trigger.update({ i18n: 'fr' });
    applySignInLanguage({ preferredLanguage: null });
    applySignInLanguage({});
    applySignInLanguage({ preferredLanguage: 'tlh' });
    expect(localizationStore.getSnapshot().context.i18n).toBe('fr');
  });
});
