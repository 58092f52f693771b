// ESLint flat config (issue 13, docs/decisions/0082): TypeScript, React hooks and jsx-a11y
// rules, and the import boundaries between the roots. `npm run lint` fails on any warning.
import path from 'node:path';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** `no-restricted-imports` for the roots a folder may not reach, by `#root/` alias or by relative path. */
const forbid = (message, ...roots) => ['error', { patterns: roots.map((root) => ({ regex: `^(#${root}/|(\\.\\./)+${root}/)`, message })) }];

const root = import.meta.dirname;
/** `src/features/<name>/…` → name; anything else → null. */
const featureOf = (file) => {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'src' && parts[1] === 'features' && parts.length > 3 ? parts[2] : null;
};

/**
 * A feature reaches another feature only through that feature's public entry,
 * `src/features/<name>/index.ts` (issue 13; docs/decisions/0087). Resolves `#src/` aliases and
 * relative paths itself, so no resolver plugin is needed; static, dynamic and re-exports count.
 */
const featureBoundaries = {
  rules: {
    'public-entry': {
      meta: {
        type: 'problem',
        docs: { description: 'Import another feature only through its src/features/<name>/index.ts.' },
        messages: { entry: "Import the '{{feature}}' feature through its public entry '#src/features/{{feature}}/index.ts', not '{{spec}}'." },
        schema: [],
      },
      create(context) {
        const file = context.filename;
        const own = featureOf(file);
        const check = (source) => {
          if (!source || typeof source.value !== 'string') return;
          const spec = source.value;
          const target = spec.startsWith('#src/')
            ? path.join(root, 'src', spec.slice(5))
            : spec.startsWith('.')
              ? path.resolve(path.dirname(file), spec)
              : null;
          if (!target) return;
          const parts = path.relative(root, target).split(path.sep);
          if (parts[0] !== 'src' || parts[1] !== 'features' || parts.length < 3) return;
          const other = parts[2];
          if (other === own) return;
          if (parts.length === 4 && /^index\.tsx?$/.test(parts[3])) return;
          context.report({ node: source, messageId: 'entry', data: { feature: other, spec } });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
        };
      },
    },
  },
};

export default tseslint.config(
  // .stryker-tmp holds StrykerJS's instrumented copies while a mutation run goes on.
  { ignores: ['dist/**', 'styled-system/**', 'node_modules/**', 'test-results/**', 'public/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // A `let` read by a closure before its one assignment cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Module augmentation (axios' AxiosRequestConfig) extends one interface and adds nothing.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  // Tests read loosely typed JSON answers; the assertions, not the types, check them.
  { files: ['tests/**/*.{ts,tsx}'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/src/**/*.{ts,tsx}', 'tests/e2e/fixtures/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...jsxA11y.flatConfigs.recommended.rules,
      // Our autoFocus is only on the first field of a dialog that has just opened, which is where
      // the WAI-ARIA dialog pattern puts focus; nowhere else moves focus on load.
      'jsx-a11y/no-autofocus': 'off',
    },
  },
  // Import boundaries (ARCHITECTURE.md): machines/ stands alone; src/ and server/ never meet.
  { files: ['machines/**/*.ts'], rules: { 'no-restricted-imports': forbid('machines/ imports nothing from src/ or server/.', 'src', 'server') } },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...forbid('src/ never imports server/.', 'server')[1],
          // react-router's Link carries framework-mode code into the first render (docs/decisions/0180).
          paths: [{ name: 'react-router-dom', importNames: ['Link', 'NavLink'], message: "Use Link from '#src/components/ui/link.tsx'." }],
        },
      ],
    },
  },
  { files: ['server/**/*.ts'], rules: { 'no-restricted-imports': forbid('server/ never imports src/.', 'src') } },
  { files: ['src/features/**/*.{ts,tsx}'], plugins: { features: featureBoundaries }, rules: { 'features/public-entry': 'error' } },
);
