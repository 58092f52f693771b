import { describe, expect, it } from 'vitest';
import { readConfig } from '#src/lib/config.ts';

describe('readConfig', () => {
  it('should fall back to the spec defaults when the page has no configuration', () => {
    expect(readConfig(undefined)).toMatchObject({
      userService: '/api',
      fontFamily: `'Public Sans', sans-serif`,
      i18n: 'en-IN',
      mode: 'light',
      presetColor: 'default',
      themeDirection: 'ltr',
      miniDrawer: false,
      container: false,
      defaultPath: '/',
      directoryConfigured: false,
    });
  });

  it('should offer directory import only when the server says true (issue 23)', () => {
    expect(readConfig({ directoryConfigured: true }).directoryConfigured).toBe(true);
    expect(readConfig({ directoryConfigured: 'true' as never }).directoryConfigured).toBe(false);
  });

  it('should keep valid values and drop invalid ones', () => {
    const config = readConfig({
      mode: 'dark',
      presetColor: 'theme8',
      themeDirection: 'rtl',
      i18n: 'gu',
      miniDrawer: true,
      examService: 'https://exam.example/api',
      // invalid: replaced by defaults
      container: 'yes' as unknown as boolean,
      fontFamily: '' as string,
    });
    expect(config).toMatchObject({
      mode: 'dark',
      presetColor: 'theme8',
      themeDirection: 'rtl',
      i18n: 'gu',
      miniDrawer: true,
      examService: 'https://exam.example/api',
      container: false,
      fontFamily: `'Public Sans', sans-serif`,
    });
    expect(readConfig({ presetColor: 'theme9' as never, i18n: 'de' as never }).presetColor).toBe('default');
    expect(readConfig({ i18n: 'de' as never }).i18n).toBe('en-IN');
  });
});
