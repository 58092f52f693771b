import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findLiteralStrings, findTranslationKeys, listFiles, loadTranslations, srcRoot } from './support/source-scan.ts';

/**
 * No component renders a literal user-facing string, and every key the code names exists.
 * Scans all of src/ (files added later included), with TypeScript's parser.
 */

const relative = (file: string) => path.relative(srcRoot, file);
const components = listFiles(srcRoot, ['.tsx']);
const modules = listFiles(srcRoot, ['.ts', '.tsx']);
const translations = loadTranslations()['en-IN'];
const namespaces = Object.keys(translations);

describe('the literal-string scanner', () => {
  it('should find text children, literal expressions, template literals and user-facing attributes', () => {
    const source = `
      export function Bad({ busy }: { busy: boolean }) {
        return (
          <section aria-label="Orders">
            <h1>Orders</h1>
            {'Loading'}
            {busy ? 'Saving…' : t('done')}
            {\`Hello \${name}\`}
            <img alt="Logo" src="/x.png" />
            <input placeholder={busy ? t('a') : 'Type here'} title={t('b')} />
          </section>
        );
      }`;
    expect(findLiteralStrings(source, 'bad.tsx').map(({ line, text, where }) => `${line} ${where} ${text}`)).toEqual([
      '4 aria-label Orders',
      '5 text Orders',
      '6 text Loading',
      '7 text Saving…',
      '8 text Hello',
      '9 alt Logo',
      '10 placeholder Type here',
    ]);
  });

  it('should let through translated text, symbols, empty alt texts and non-visible attributes', () => {
    const source = `
      export const Good = () => (
        <div className="x" data-testid="good-one" role="group" id="main-content">
          <h1>{t('title')}</h1>
          <span aria-hidden="true">·</span> — {count} / {total}
          <img alt="" src="/x.png" />
          <a href="/users/42" lang="fr">{label}</a>
        </div>
      );`;
    expect(findLiteralStrings(source, 'good.tsx')).toEqual([]);
  });

  it('should collect keys with their namespaces from t calls, ns options, prefixes and …Key properties', () => {
    const source = `
      function A() {
        const { t } = useTranslation('settings');
        t('title'); t('common:shell.home'); t('nav.dashboard', { ns: 'common' }); t(\`mode.\${m}\`);
        const item = { titleKey: 'nav.users', ns: 'users' };
        const other = { labelKey: 'font.serif' };
      }`;
    const uses = findTranslationKeys(source, 'a.tsx', ['common', 'settings', 'users']);
    expect(uses.map(({ key, namespaces: ns, prefix }) => `${ns.join('|')} ${key}${prefix ? '*' : ''}`)).toEqual([
      'settings title',
      'common shell.home',
      'common nav.dashboard',
      'settings mode.*',
      'users nav.users',
      'common|settings|users font.serif',
    ]);
    // useTranslation's keyPrefix goes before the plain keys of the file, not before a namespaced one.
    const prefixed = findTranslationKeys(
      `function B() { const { t } = useTranslation('delivery', { keyPrefix: 'results' }); t('title'); t('common:shell.home'); }`,
      'b.tsx',
      ['common', 'delivery'],
    );
    expect(prefixed.map(({ key, namespaces: ns }) => `${ns.join('|')} ${key}`)).toEqual(['delivery results.title', 'common shell.home']);
  });
});

describe('client source', () => {
  it('should scan every component under src/', () => {
    expect(components.map(relative)).toEqual(expect.arrayContaining(['app/shell/header.tsx', 'app/settings/settings-panel.tsx', 'main.tsx']));
  });

  it('should render no literal user-facing string in any component', () => {
    const findings = components.flatMap((file) => findLiteralStrings(readFileSync(file, 'utf8'), relative(file)));
    expect(findings.map((f) => `${f.file}:${f.line} ${f.where}: ${JSON.stringify(f.text)}`)).toEqual([]);
  });

  it('should name only translation keys that exist (en-IN; the translations test covers the other locales)', () => {
    const exists = (ns: string, key: string, prefix: boolean) => {
      const keys = Object.keys(translations[ns] ?? {});
      if (prefix) return keys.some((k) => k.startsWith(key));
      return keys.includes(key) || keys.some((k) => k.startsWith(`${key}_`) && /_(zero|one|two|few|many|other)$/.test(k));
    };
    const uses = modules.flatMap((file) => findTranslationKeys(readFileSync(file, 'utf8'), relative(file), namespaces));
    expect(uses.length).toBeGreaterThan(20);
    const missing = uses.filter((use) => !use.namespaces.some((ns) => exists(ns, use.key, use.prefix)));
    expect(missing.map((m) => `${m.file}:${m.line} ${m.namespaces.join('|')}:${m.key}${m.prefix ? '…' : ''}`)).toEqual([]);
  });
});
