import { createStore } from '@xstate/store';
import type { Locale } from '#src/lib/config.ts';
import { isLocale } from '#src/i18n/i18n.ts';

/**
 * The localization slice (spec §3/§4): the chosen language code at `localization.i18n`, or
 * null when none was chosen or storing it failed. Persisted with the other slices.
 */
export interface LocalizationState {
  i18n: Locale | null;
}

export const initialLocalizationState: LocalizationState = { i18n: null };

export function createLocalizationStore(initial: LocalizationState = initialLocalizationState) {
  return createStore({
    context: initial,
    on: {
      update: (context, event: { i18n: unknown }) => ({ ...context, i18n: isLocale(event.i18n) ? event.i18n : null }),
      failure: (context) => ({ ...context, i18n: null }),
      reset: () => initialLocalizationState,
    },
  });
}

export const localizationStore = createLocalizationStore();
