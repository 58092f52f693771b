import { describe, expect, it } from 'vitest';
import { locales } from '#src/lib/config.ts';

const files = import.meta.glob<{ default: Record<string, unknown> }>('/src/i18n/locales/*/{errors,notifications}.json', { eager: true });

function flatten(node: unknown, prefix = ''): Record<string, string> {
  if (typeof node === 'string') return { [prefix]: node };
  return Object.entries(node as Record<string, unknown>).reduce<Record<string, string>>(
    (all, [key, value]) => ({ ...all, ...flatten(value, prefix ? `${prefix}.${key}` : key) }),
    {},
  );
}

const texts = (locale: string, namespace: string) => {
  const file = files[`/src/i18n/locales/${locale}/${namespace}.json`];
  if (!file) throw new Error(`missing ${locale}/${namespace}.json`);
  return flatten(file.default);
};

describe.each(['errors', 'notifications'])('the %s namespace', (namespace) => {
  it('should have the same keys in all six locales', () => {
    const keys = Object.keys(texts('en-US', namespace)).sort();
    for (const locale of locales) expect(Object.keys(texts(locale, namespace)).sort()).toEqual(keys);
  });

  it('should be the same English in en-IN and en-US', () => {
    expect(texts('en-IN', namespace)).toEqual(texts('en-US', namespace));
  });
});

describe('spec texts', () => {
  it('should keep the exact English of spec §8 and §3/§4', () => {
    expect(texts('en-US', 'errors')).toMatchObject({
      'catalogue.invalidEndpoint': 'Invalid end point, Please try again later or contact Admin',
      'catalogue.generic': 'Something went wrong, Please try again later or contact Admin',
      'catalogue.network': "Error! Server can't be reached. Please try again later or contact server administrator!",
      'catalogue.technicalDifficulties': "We're currently experiencing technical difficulties. Please try again later.",
      'toast.errorId': 'Error id',
      'toast.statusCode': 'Status code',
      'toast.supportMessage': 'Support message',
    });
    expect(texts('en-US', 'notifications')).toMatchObject({ 'snackbar.defaultMessage': 'Note archived', 'snackbar.undo': 'UNDO' });
  });

  it.each(['fr', 'es', 'hi', 'gu'])('should be translated in %s, not copied', (locale) => {
    const english = { ...texts('en-US', 'errors'), ...texts('en-US', 'notifications') };
    const translated = { ...texts(locale, 'errors'), ...texts(locale, 'notifications') };
    const specKeys = [
      'catalogue.invalidEndpoint',
      'catalogue.generic',
      'catalogue.network',
      'catalogue.technicalDifficulties',
      'toast.errorId',
      'toast.statusCode',
      'toast.supportMessage',
      'snackbar.defaultMessage',
      'snackbar.undo',
    ];
    for (const key of specKeys) expect(translated[key], key).not.toBe(english[key]);
  });
});
