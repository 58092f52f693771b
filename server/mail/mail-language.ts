import { supportedLocales } from '#server/config.ts';

export type MailLanguage = (typeof supportedLocales)[number];

/** The product's default locale (spec §9): used when neither the user nor the request names one. */
export const DEFAULT_MAIL_LANGUAGE: MailLanguage = 'en-IN';

/**
 * A language tag matched to a supported locale: exact first (`en-US`), then by its primary
 * language (`fr-CA` → `fr`, `hi-IN` → `hi`); English other than en-US falls back to the
 * product's default en-IN.
 */
export function matchLanguage(tag: string | null | undefined): MailLanguage | undefined {
  if (!tag) return undefined;
  const wanted = tag.trim().toLowerCase().replace(/_/g, '-');
  if (!wanted || wanted === '*') return undefined;
  const exact = supportedLocales.find((locale) => locale.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split('-')[0];
  if (primary === 'en') return DEFAULT_MAIL_LANGUAGE;
  return supportedLocales.find((locale) => locale.toLowerCase() === primary);
}

/** Accept-Language entries in order of preference (RFC 9110 §12.5.4); q=0 entries are dropped. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((entry, index) => {
      const [tag, ...params] = entry.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The user's saved language, else the request's Accept-Language, else en-IN. */
export function pickMailLanguage(preferred: string | null | undefined, acceptLanguage: string | undefined): MailLanguage {
  const saved = matchLanguage(preferred);
  if (saved) return saved;
  for (const tag of acceptedLanguages(acceptLanguage)) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return DEFAULT_MAIL_LANGUAGE;
}
