/**
 * The fixed texts of spec §8, named once. Their wording lives in the `errors` namespace
 * (`catalogue.<key>`, exact English in en-IN and en-US, translated elsewhere); the failed-call
 * handling and normalizeError both refer to them by key, and views resolve them when they
 * render, so a language switch re-renders them.
 */
export const catalogueKeys = ['invalidEndpoint', 'generic', 'network', 'technicalDifficulties'] as const;
export type CatalogueKey = (typeof catalogueKeys)[number];

export interface CatalogueText {
  catalogue: CatalogueKey;
}

/** Text to show: the caller's own words (server messages), or a catalogue text. */
export type DisplayText = string | CatalogueText;

export const catalogueText = (catalogue: CatalogueKey): CatalogueText => ({ catalogue });

export function isCatalogueText(value: unknown): value is CatalogueText {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    (catalogueKeys as readonly unknown[]).includes((value as CatalogueText).catalogue)
  );
}

/** A display text in words, given the `errors` namespace's translate function. */
export function resolveText(text: DisplayText, t: (key: string, options: { ns: 'errors' }) => string): string {
  return typeof text === 'string' ? text : t(`catalogue.${text.catalogue}`, { ns: 'errors' });
}
