/**
 * A language's name in the screen's language ("Hindi" / "हिन्दी" for `hi`), from the browser's
 * own data (Intl.DisplayNames): languages are shown by name, never by a code such as "hi"
 * (issue 13). The tag itself only when the browser knows no name for it.
 */
export function languageName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
