/**
 * Build-time Panda class names (docs/decisions/0180): a `css({...})` or `cva({...})` call whose
 * arguments are plain literals is evaluated once while bundling, with the generated
 * `styled-system` functions themselves, and replaced by its result — a class-name string, or
 * for a recipe a lookup table of every variant combination. Panda's CSS extraction reads the
 * source files, not the bundle, so the style sheet is the same. Calls with anything computed
 * keep the runtime; the runtime then leaves the first render if no first-render module needs it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import type { Plugin } from 'vite';

type Node = { type: string; start: number; end: number; [key: string]: unknown };
type Runtime = {
  css: (...styles: unknown[]) => string;
  cva: (config: unknown) => ((props?: Record<string, unknown>) => string) & { variantMap: Record<string, string[]> };
};

const NOT_STATIC = Symbol('not static');

/** Thrown while evaluating when a `a ? b : c` inside a style has not been given a branch yet. */
class NeedsBranch {
  constructor(readonly node: Node) {}
}

type Scope = ReadonlyMap<string, unknown>;

/**
 * The value of a literal expression (module-level constants allowed), or NOT_STATIC. A
 * conditional takes the branch `branches` names for it; one not named yet throws NeedsBranch.
 */
export function staticValue(node: Node, scope: Scope = new Map(), branches: ReadonlyMap<Node, boolean> = new Map()): unknown {
  const value = (child: Node) => staticValue(child, scope, branches);
  switch (node.type) {
    case 'Literal':
      return (node as unknown as { value: unknown }).value;
    case 'Identifier':
      if (scope.has(node.name as string)) return scope.get(node.name as string);
      return node.name === 'undefined' ? undefined : NOT_STATIC;
    case 'TemplateLiteral': {
      const { expressions, quasis } = node as unknown as { expressions: Node[]; quasis: Array<{ value: { cooked: string } }> };
      const parts = expressions.map(value);
      if (parts.some((part) => part === NOT_STATIC || (part !== null && typeof part === 'object'))) return NOT_STATIC;
      return quasis.map((quasi, index) => quasi.value.cooked + (index < parts.length ? String(parts[index]) : '')).join('');
    }
    case 'UnaryExpression': {
      const { operator, argument } = node as unknown as { operator: string; argument: Node };
      const operand = value(argument);
      return operator === '-' && typeof operand === 'number' ? -operand : NOT_STATIC;
    }
    case 'ConditionalExpression': {
      const branch = branches.get(node);
      if (branch === undefined) throw new NeedsBranch(node);
      return value((branch ? node.consequent : node.alternate) as Node);
    }
    case 'ArrayExpression': {
      const values = (node.elements as Array<Node | null>).map((element) => (element ? value(element) : NOT_STATIC));
      return values.includes(NOT_STATIC) ? NOT_STATIC : values;
    }
    case 'ObjectExpression': {
      const result: Record<string, unknown> = {};
      for (const property of node.properties as Node[]) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method) return NOT_STATIC;
        const key = property.key as Node;
        const name = property.computed
          ? value(key)
          : key.type === 'Identifier'
            ? key.name
            : key.type === 'Literal'
              ? (key as unknown as { value: unknown }).value
              : NOT_STATIC;
        if (typeof name !== 'string' && typeof name !== 'number') return NOT_STATIC;
        const entry = value(property.value as Node);
        if (entry === NOT_STATIC) return NOT_STATIC;
        result[String(name)] = entry;
      }
      return result;
    }
    default:
      return NOT_STATIC;
  }
}

/** Module-level `const NAME = <literal>` (exported or not), in source order. */
function moduleConstants(program: Node): Map<string, unknown> {
  const scope = new Map<string, unknown>();
  for (const statement of program.body as Node[]) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (!declaration || declaration.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const id = declarator.id as Node;
      if (id.type !== 'Identifier' || !declarator.init) continue;
      try {
        const value = staticValue(declarator.init as Node, scope);
        if (value !== NOT_STATIC && (value === null || typeof value !== 'object')) scope.set(id.name as string, value);
      } catch (error) {
        if (!(error instanceof NeedsBranch)) throw error;
      }
    }
  }
  return scope;
}

/** At most this many conditionals inside one call are unfolded (2^n class strings). */
const MAX_BRANCHES = 3;

/**
 * The call's replacement as an expression: its result for literal arguments, or a `test ? … : …`
 * over the conditionals inside them (each test kept as written), or null when not static.
 */
function unfold(code: string, args: Node[], scope: Scope, evaluate: (values: unknown[]) => string | null, branches = new Map<Node, boolean>()): string | null {
  try {
    const values = args.map((arg) => staticValue(arg, scope, branches));
    return values.includes(NOT_STATIC) ? null : evaluate(values);
  } catch (error) {
    if (!(error instanceof NeedsBranch) || branches.size >= MAX_BRANCHES) {
      if (error instanceof NeedsBranch) return null;
      throw error;
    }
    const yes = unfold(code, args, scope, evaluate, new Map([...branches, [error.node, true]]));
    const no = unfold(code, args, scope, evaluate, new Map([...branches, [error.node, false]]));
    if (yes === null || no === null) return null;
    const test = error.node.test as Node;
    return `(${code.slice(test.start, test.end)}) ? ${yes} : ${no}`;
  }
}

function walk(node: unknown, visit: (node: Node) => void) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  const value = node as Node;
  if (typeof value.type === 'string') visit(value);
  for (const key of Object.keys(value)) if (key !== 'type' && key !== 'start' && key !== 'end') walk(value[key], visit);
}

/** Every combination of a recipe's variant values ('' = not given, the default applies). */
function combinations(variantMap: Record<string, string[]>): string[][] {
  let rows: string[][] = [[]];
  for (const values of Object.values(variantMap)) rows = rows.flatMap((row) => ['', ...values].map((value) => [...row, value]));
  return rows;
}

/** The replacement of a static `cva(config)`: the same call signature, answered from a table. */
export function recipeTable(runtime: Runtime, config: unknown): string {
  const recipe = runtime.cva(config);
  const keys = Object.keys(recipe.variantMap);
  const table: Record<string, string> = {};
  for (const row of combinations(recipe.variantMap)) {
    const props = Object.fromEntries(row.flatMap((value, index) => (value === '' ? [] : [[keys[index], value]])));
    table[row.join('|')] = recipe(props);
  }
  return `/* @__PURE__ */ ((t, k) => (p = {}) => t[k.map((n) => (p[n] == null ? '' : String(p[n]))).join('|')])(${JSON.stringify(table)}, ${JSON.stringify(keys)})`;
}

interface Replacement {
  start: number;
  end: number;
  text: string;
}

/** The module's code with its static `css`/`cva` calls replaced, or null when nothing changes. */
export function replaceStaticCalls(code: string, runtime: Runtime, filename = 'module.js'): string | null {
  const program = parseAst(code, { lang: 'js', sourceType: 'module' }, filename) as unknown as Node;
  const locals = new Map<string, 'css' | 'cva'>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ImportDeclaration' || !/styled-system\/css(\/index\.mjs)?$/.test((statement.source as { value: string }).value)) continue;
    for (const specifier of statement.specifiers as Node[]) {
      const imported = specifier.imported as { name?: string } | undefined;
      if (specifier.type === 'ImportSpecifier' && (imported?.name === 'css' || imported?.name === 'cva')) {
        locals.set((specifier.local as { name: string }).name, imported.name);
      }
    }
  }
  if (locals.size === 0) return null;
  const scope = moduleConstants(program);
  const replacements: Replacement[] = [];
  walk(program, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee as Node;
    const kind = callee.type === 'Identifier' ? locals.get(callee.name as string) : undefined;
    if (!kind || replacements.some((r) => r.start <= node.start && node.end <= r.end)) return;
    const args = node.arguments as Node[];
    const evaluate = (values: unknown[]) =>
      kind === 'css' ? JSON.stringify(runtime.css(...values)) : values.length === 1 ? recipeTable(runtime, values[0]) : null;
    const text = unfold(code, args, scope, evaluate);
    if (text !== null) replacements.push({ start: node.start, end: node.end, text: `(${text})` });
    else if (process.env.PANDA_STATIC_DEBUG)
      console.log('panda-static: kept', filename, code.slice(node.start, Math.min(node.end, node.start + 80)).replace(/\s+/g, ' '));
  });
  if (replacements.length === 0) return null;
  replacements.sort((a, b) => b.start - a.start);
  let result = code;
  // The replaced range's line breaks are kept, so the lines after it keep their numbers (no source map needed).
  for (const { start, end, text } of replacements)
    result = result.slice(0, start) + text + '\n'.repeat(code.slice(start, end).split('\n').length - 1) + result.slice(end);
  return result;
}

/** The Vite plugin (build only): runs after TypeScript and JSX are compiled away. */
export function pandaStatic(root: string): Plugin {
  let runtime: Promise<Runtime> | undefined;
  return {
    name: 'panda-static',
    apply: 'build',
    enforce: 'post',
    async transform(code, id) {
      if (id.includes('/node_modules/') || id.includes('/styled-system/') || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0])) return null;
      if (!code.includes('styled-system/css')) return null;
      runtime ??= import(pathToFileURL(path.join(root, 'styled-system/css/index.mjs')).href) as Promise<Runtime>;
      const replaced = replaceStaticCalls(code, await runtime, id);
      return replaced === null ? null : { code: replaced, map: null };
    },
  };
}
