import { resolveText, type DisplayText } from '#src/lib/error-catalogue.ts';
import { normalizeError, type ErrorDisplay } from '#src/lib/normalize-error.ts';
import enUS from '#src/i18n/locales/en-US/errors.json';

/** A catalogue text in the words an en-US user reads (the spec's exact English). */
export function english(text: DisplayText): string {
  return resolveText(text, (key) => {
    const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], enUS);
    if (typeof value !== 'string') throw new Error(`missing translation ${key}`);
    return value;
  });
}

/** An error display in words. */
export function displayInWords(display: ErrorDisplay | null) {
  if (!display) return null;
  return { title: display.title === null ? null : english(display.title), lines: display.lines.map(english), details: display.details };
}

/** What the error toast would say for a value the HTTP layer handed to it, as one text. */
export async function toastText(subject: unknown): Promise<string | null> {
  const display = await normalizeError(subject);
  if (!display) return null;
  return [display.title, ...display.lines]
    .filter((t) => t !== null)
    .map((t) => english(t!))
    .join(' | ');
}
