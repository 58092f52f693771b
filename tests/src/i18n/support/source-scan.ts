import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Static checks over the client's source (TypeScript's own parser, no regexes over code):
 * user-facing text written as literals in JSX, and the translation keys the code uses.
 */

export const srcRoot = path.resolve(import.meta.dirname, '../../../../src');
export const localesRoot = path.join(srcRoot, 'i18n/locales');

/** Every file under `dir` whose name ends with one of `extensions` (recursive, sorted). */
export function listFiles(dir: string, extensions: string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, extensions));
    else if (extensions.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out.sort();
}

/** Attributes whose value a person reads or hears. */
export const userFacingAttributes = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'title',
  'alt',
  'placeholder',
  'label',
]);

const hasLetter = (text: string) => /\p{L}/u.test(text);

export interface Finding {
  file: string;
  line: number;
  text: string;
  where: string;
}

function parse(source: string, fileName: string) {
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** String literals an expression can evaluate to: `'a'`, `c ? 'a' : 'b'`, `x ?? 'a'`, `` `a ${b}` ``. */
function literalTexts(node: ts.Expression): Array<{ node: ts.Node; text: string }> {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [{ node, text: node.text }];
  if (ts.isTemplateExpression(node)) {
    const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
    return [{ node, text }];
  }
  if (ts.isParenthesizedExpression(node)) return literalTexts(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalTexts(node.whenTrue), ...literalTexts(node.whenFalse)];
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(node.operatorToken.kind)
  ) {
    return [...literalTexts(node.left), ...literalTexts(node.right)];
  }
  return [];
}

/** Literal user-facing text in JSX: text children, `{'…'}` children and user-facing attributes. */
export function findLiteralStrings(source: string, fileName: string): Finding[] {
  const sourceFile = parse(source, fileName);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string, where: string) => {
    if (!hasLetter(text)) return;
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    findings.push({ file: fileName, line: line + 1, text: text.trim().replace(/\s+/g, ' '), where });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text, 'text');
    else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      for (const found of literalTexts(node.expression)) report(found.node, found.text, 'text');
    } else if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(sourceFile);
      if (userFacingAttributes.has(name) && node.initializer) {
        if (ts.isStringLiteral(node.initializer)) report(node.initializer, node.initializer.text, name);
        else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) {
          for (const found of literalTexts(node.initializer.expression)) report(found.node, found.text, name);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return findings;
}

export interface KeyUse {
  file: string;
  line: number;
  /** Namespaces the key may live in (any of them will do). */
  namespaces: string[];
  key: string;
  /** A template key (`mode.${x}`): only its static prefix is known. */
  prefix: boolean;
}

/** Properties that hold a translation key: titleKey, nameKey, labelKey, messageKey … (not productKey). */
const translationKeyProperty = /(?:title|name|label|message|description|text|hint|help|i18n)Key$/i;

const stringValue = (node: ts.Node | undefined) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined);

/**
 * Translation keys the code names: `t('key')`, `t('ns:key')`, `t('key', { ns: 'x' })`,
 * `t(`prefix.${x}`)`, and `titleKey: 'key'`-like properties (e.g. a menu entry's `titleKey`, with an
 * `ns` beside it). A file's default namespaces come from its `useTranslation(…)` calls
 * ('common' when it has none or calls it without one).
 */
export function findTranslationKeys(source: string, fileName: string, allNamespaces: string[]): KeyUse[] {
  const sourceFile = parse(source, fileName);
  const fileNamespaces = new Set<string>();
  /** `useTranslation(ns, { keyPrefix })` of each call in the file ('' for none). */
  const filePrefixes = new Set<string>();
  const uses: KeyUse[] = [];
  const collectNamespaces = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'useTranslation') {
      const [first, options] = node.arguments;
      const keyPrefix =
        options && ts.isObjectLiteralExpression(options)
          ? options.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(sourceFile) === 'keyPrefix')
          : undefined;
      filePrefixes.add(stringValue(keyPrefix?.initializer) ?? '');
      if (!first) fileNamespaces.add('common');
      else if (stringValue(first)) fileNamespaces.add(stringValue(first)!);
      else if (ts.isArrayLiteralExpression(first)) for (const element of first.elements) if (stringValue(element)) fileNamespaces.add(stringValue(element)!);
    }
    ts.forEachChild(node, collectNamespaces);
  };
  collectNamespaces(sourceFile);
  if (fileNamespaces.size === 0) fileNamespaces.add('common');
  // A prefix shared by every useTranslation of the file goes before its plain keys.
  const [onlyPrefix] = filePrefixes.size === 1 ? [...filePrefixes] : [''];

  const add = (node: ts.Node, raw: string, explicitNs: string | undefined, prefix: boolean, anyNamespace = false) => {
    let key = raw;
    let namespaces = explicitNs ? [explicitNs] : anyNamespace ? allNamespaces : [...fileNamespaces];
    const colon = key.indexOf(':');
    if (colon > 0 && allNamespaces.includes(key.slice(0, colon))) {
      namespaces = [key.slice(0, colon)];
      key = key.slice(colon + 1);
    } else if (onlyPrefix && !explicitNs && !anyNamespace) key = `${onlyPrefix}.${key}`;
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    uses.push({ file: fileName, line: line + 1, namespaces, key, prefix });
  };
  const nsOption = (options: ts.Node | undefined) => {
    if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
    const ns = options.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(sourceFile) === 'ns');
    return stringValue(ns?.initializer);
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isT = (ts.isIdentifier(callee) && callee.text === 't') || (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
      const [first, second] = node.arguments;
      if (isT && first) {
        if (stringValue(first) !== undefined) add(first, stringValue(first)!, nsOption(second), false);
        else if (ts.isTemplateExpression(first)) add(first, first.head.text, nsOption(second), true);
      }
    }
    if (ts.isObjectLiteralExpression(node)) {
      const ns = nsOption(node);
      for (const property of node.properties) {
        if (!ts.isPropertyAssignment(property) || !translationKeyProperty.test(property.name.getText(sourceFile))) continue;
        const value = stringValue(property.initializer);
        // A key without an `ns` beside it may live in any namespace (its user names the namespace).
        if (value !== undefined) add(property.initializer, value, ns, false, ns === undefined);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return uses;
}

/** Flattens nested translation objects to dotted keys. */
export function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { [prefix]: value };
  return Object.entries(value as Record<string, unknown>).reduce<Record<string, unknown>>(
    (all, [key, child]) => Object.assign(all, flatten(child, prefix ? `${prefix}.${key}` : key)),
    {},
  );
}

export const locales = ['en-IN', 'en-US', 'fr', 'es', 'hi', 'gu'] as const;

/** locales/<language>/<namespace>.json, parsed and flattened. */
export function loadTranslations(): Record<string, Record<string, Record<string, unknown>>> {
  const all: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const language of readdirSync(localesRoot).sort()) {
    all[language] = {};
    for (const file of readdirSync(path.join(localesRoot, language))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      all[language][file.replace(/\.json$/, '')] = flatten(JSON.parse(readFileSync(path.join(localesRoot, language, file), 'utf8')));
    }
  }
  return all;
}
