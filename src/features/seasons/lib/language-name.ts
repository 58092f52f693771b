import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** A language code (`hi`, `gu`, `en` …) by its name in the UI's language, with its own name beside it ("Hindi (हिन्दी)"). */
export function useLanguageName(): (code: string) => string {
  const { i18n } = useTranslation();
  const ui = i18n.language || 'en-IN';
  return useCallback(
    (code: string) => {
      try {
        const inUi = new Intl.DisplayNames([ui], { type: 'language' }).of(code) ?? code;
        const own = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
        return inUi.toLowerCase() === own.toLowerCase() ? inUi : `${inUi} (${own})`;
      } catch {
        return code;
      }
    },
    [ui],
  );
}
