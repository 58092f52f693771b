import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveText } from '#src/lib/error-catalogue.ts';
import { normalizeError } from '#src/lib/normalize-error.ts';

/** The words of a failed call (spec §8 error display), for showing inside a screen instead of a toast. */
export function useErrorText(error: unknown): string | null {
  const { t } = useTranslation('errors');
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    if (!error) {
      setText(null);
      return;
    }
    void normalizeError(error).then((display) => {
      if (!current) return;
      const lines = display ? [display.title, ...display.lines].filter(Boolean) : [];
      setText(lines.length ? lines.map((line) => resolveText(line!, (key, options) => t(key, options))).join(' ') : null);
    });
    return () => {
      current = false;
    };
  }, [error, t]);
  return text;
}
