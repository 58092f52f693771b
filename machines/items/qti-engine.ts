/**
 * QTI response processing (QTI 3.0 / 2.x semantics): response declarations, the three standard
 * templates and the subset of rules and expressions that items use for marking. Pure and
 * synchronous; shared by the server and the client (no Node or DOM API).
 *
 * Items of ours are compiled into this form (compile-item.ts), so the scorer, the export and the
 * import verification all run the same processing (docs/decisions/0120).
 */

export type BaseType = 'identifier' | 'string' | 'float' | 'integer' | 'boolean' | 'pair' | 'directedPair' | 'point';
export type Cardinality = 'single' | 'multiple' | 'ordered';
export interface Point {
  readonly x: number;
  readonly y: number;
}
/** identifier, string, pair ("A B", members sorted), directedPair ("A B"), numbers, booleans, points. */
export type Scalar = string | number | boolean | Point;
/** null is QTI's NULL; an empty container is NULL too. */
export type QValue = null | Scalar | readonly Scalar[];

export interface MapEntry {
  key: Scalar;
  value: number;
  caseSensitive: boolean;
}
export interface Mapping {
  entries: MapEntry[];
  defaultValue: number;
  lowerBound?: number;
  upperBound?: number;
}
export type AreaShape = 'circle' | 'rect' | 'poly' | 'ellipse' | 'default';
export interface AreaMapEntry {
  shape: AreaShape;
  coords: number[];
  value: number;
}
export interface AreaMapping {
  entries: AreaMapEntry[];
  defaultValue: number;
  lowerBound?: number;
  upperBound?: number;
}
export interface ResponseDeclaration {
  identifier: string;
  cardinality: Cardinality;
  baseType: BaseType;
  correct: Scalar[] | null;
  mapping?: Mapping;
  areaMapping?: AreaMapping;
}

export type Expr =
  | { op: 'baseValue'; baseType: BaseType; value: Scalar }
  | { op: 'variable' | 'correct' | 'mapResponse' | 'mapResponsePoint'; id: string }
  | { op: 'null' }
  | {
      op:
        | 'isNull'
        | 'not'
        | 'containerSize'
        | 'match'
        | 'member'
        | 'contains'
        | 'and'
        | 'or'
        | 'sum'
        | 'product'
        | 'subtract'
        | 'min'
        | 'max'
        | 'lt'
        | 'lte'
        | 'gt'
        | 'gte'
        | 'multiple'
        | 'ordered';
      args: Expr[];
    }
  | { op: 'stringMatch'; caseSensitive: boolean; args: Expr[] }
  | {
      op: 'equal';
      toleranceMode: 'exact' | 'absolute' | 'relative';
      tolerance: [number, number];
      includeLowerBound: boolean;
      includeUpperBound: boolean;
      args: Expr[];
    };

export type Rule = { type: 'condition'; branches: { when: Expr | null; then: Rule[] }[] } | { type: 'set'; id: string; expr: Expr } | { type: 'exit' };

export const TEMPLATES = ['match_correct', 'map_response', 'map_response_point'] as const;
export type TemplateName = (typeof TEMPLATES)[number];

/** The processing of one item: a standard template, or rules of its own. */
export type Processing = { template: TemplateName } | { template: null; rules: Rule[] };

const R = (id: string) => ({ op: 'variable', id }) as const;
const score = (expr: Expr): Rule => ({ type: 'set', id: 'SCORE', expr });
const float = (value: number): Expr => ({ op: 'baseValue', baseType: 'float', value });

/** The templates' rules as the QTI 3.0 specification publishes them (rptemplates/*.xml). */
export function templateRules(name: TemplateName): Rule[] {
  if (name === 'match_correct') {
    return [
      {
        type: 'condition',
        branches: [
          { when: { op: 'match', args: [R('RESPONSE'), { op: 'correct', id: 'RESPONSE' }] }, then: [score(float(1))] },
          { when: null, then: [score(float(0))] },
        ],
      },
    ];
  }
  const map: Expr = name === 'map_response' ? { op: 'mapResponse', id: 'RESPONSE' } : { op: 'mapResponsePoint', id: 'RESPONSE' };
  return [
    {
      type: 'condition',
      branches: [
        { when: { op: 'isNull', args: [R('RESPONSE')] }, then: [score(float(0))] },
        { when: null, then: [score(map)] },
      ],
    },
  ];
}

export function rulesOf(processing: Processing): Rule[] {
  return processing.template ? templateRules(processing.template) : processing.rules;
}

// ---------------------------------------------------------------------------------------------
// Values

const isContainer = (value: QValue): value is readonly Scalar[] => Array.isArray(value);
const isPoint = (value: unknown): value is Point => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Pairs are unordered: "B A" and "A B" are one value, kept with members sorted. */
export function normalizePair(value: string): string {
  const [a = '', b = ''] = value.trim().split(/\s+/);
  return a <= b ? `${a} ${b}` : `${b} ${a}`;
}

/** Parses a QTI value text (qti-value, map-key, base-value) of a base type. */
export function parseScalar(baseType: BaseType, text: string): Scalar {
  const t = text.trim();
  switch (baseType) {
    case 'float':
    case 'integer': {
      const n = Number(t);
      if (t === '' || !Number.isFinite(n)) throw new Error(`"${text}" is not a ${baseType}`);
      return n;
    }
    case 'boolean':
      if (t !== 'true' && t !== 'false' && t !== '1' && t !== '0') throw new Error(`"${text}" is not a boolean`);
      return t === 'true' || t === '1';
    case 'pair':
      return normalizePair(t);
    case 'directedPair': {
      const [a = '', b = ''] = t.split(/\s+/);
      return `${a} ${b}`;
    }
    case 'point': {
      const [x, y] = t.split(/\s+/).map(Number);
      if (!Number.isFinite(x) || !Number.isFinite(y)) throw new Error(`"${text}" is not a point`);
      return { x, y };
    }
    case 'string':
      return text;
    default:
      return t;
  }
}

export function formatScalar(value: Scalar): string {
  if (isPoint(value)) return `${value.x} ${value.y}`;
  return String(value);
}

function sameScalar(a: Scalar, b: Scalar): boolean {
  if (isPoint(a) || isPoint(b)) return isPoint(a) && isPoint(b) && a.x === b.x && a.y === b.y;
  return a === b;
}

function sameMultiset(a: readonly Scalar[], b: readonly Scalar[]): boolean {
  if (a.length !== b.length) return false;
  const used = new Array<boolean>(b.length).fill(false);
  outer: for (const x of a) {
    for (let i = 0; i < b.length; i += 1) {
      if (!used[i] && sameScalar(x, b[i])) {
        used[i] = true;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

function distinct(values: readonly Scalar[]): Scalar[] {
  const out: Scalar[] = [];
  for (const v of values) if (!out.some((o) => sameScalar(o, v))) out.push(v);
  return out;
}

const lower = (s: string) => s.toLowerCase();

function clamp(value: number, lowerBound?: number, upperBound?: number): number {
  let v = value;
  if (lowerBound !== undefined && v < lowerBound) v = lowerBound;
  if (upperBound !== undefined && v > upperBound) v = upperBound;
  return v;
}

function mapOne(mapping: Mapping, value: Scalar): number {
  for (const entry of mapping.entries) {
    if (typeof value === 'string' && typeof entry.key === 'string') {
      if (entry.caseSensitive ? entry.key === value : lower(entry.key) === lower(value)) return entry.value;
    } else if (sameScalar(entry.key, value)) {
      return entry.value;
    }
  }
  return mapping.defaultValue;
}

/** QTI mapResponse: the mapped value, or for a container the sum over its distinct values; then the bounds. */
export function mapResponse(mapping: Mapping, value: QValue): number {
  let total = 0;
  if (value !== null) {
    if (isContainer(value)) for (const v of distinct(value)) total += mapOne(mapping, v);
    else total = mapOne(mapping, value);
  }
  return clamp(total, mapping.lowerBound, mapping.upperBound);
}

export function insideArea(shape: AreaShape, c: readonly number[], { x, y }: Point): boolean {
  switch (shape) {
    case 'default':
      return true;
    case 'circle':
      return (x - c[0]) ** 2 + (y - c[1]) ** 2 <= c[2] ** 2;
    case 'rect':
      return x >= Math.min(c[0], c[2]) && x <= Math.max(c[0], c[2]) && y >= Math.min(c[1], c[3]) && y <= Math.max(c[1], c[3]);
    case 'ellipse':
      return c[2] > 0 && c[3] > 0 && ((x - c[0]) / c[2]) ** 2 + ((y - c[1]) / c[3]) ** 2 <= 1;
    case 'poly': {
      let inside = false;
      const n = Math.floor(c.length / 2);
      for (let i = 0, j = n - 1; i < n; j = i, i += 1) {
        const xi = c[2 * i];
        const yi = c[2 * i + 1];
        const xj = c[2 * j];
        const yj = c[2 * j + 1];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    }
  }
}

/** QTI mapResponsePoint: each area counts once however many points fall in it; a point in no area maps to the default. */
export function mapResponsePoint(mapping: AreaMapping, value: QValue): number {
  if (value === null) return clamp(0, mapping.lowerBound, mapping.upperBound);
  const points = isPoint(value) ? [value] : isContainer(value) ? value.filter(isPoint) : [];
  const counted = new Set<number>();
  let total = 0;
  for (const point of points) {
    const index = mapping.entries.findIndex((entry) => insideArea(entry.shape, entry.coords, point));
    if (index < 0) total += mapping.defaultValue;
    else if (!counted.has(index)) {
      counted.add(index);
      total += mapping.entries[index].value;
    }
  }
  return clamp(total, mapping.lowerBound, mapping.upperBound);
}

// ---------------------------------------------------------------------------------------------
// Compiling rules to closures (an item is compiled once and scored many times)

export interface ProcessingContext {
  responses: Readonly<Record<string, QValue>>;
  outcomes: Record<string, QValue>;
}
type Fn = (ctx: ProcessingContext) => QValue;

export class ProcessingError extends Error {}

const num = (v: QValue): number | null => (typeof v === 'number' ? v : null);
const truthy = (v: QValue) => v === true;

function containerOf(v: QValue): readonly Scalar[] | null {
  if (v === null) return null;
  return isContainer(v) ? v : [v];
}

/** Ordered containers compare as sequences; values do not carry their cardinality, their sources do. */
function isOrderedExpr(expr: Expr, decls: ReadonlyMap<string, ResponseDeclaration>): boolean {
  if (expr.op === 'ordered') return true;
  if (expr.op === 'variable' || expr.op === 'correct') return decls.get(expr.id)?.cardinality === 'ordered';
  return false;
}

function compileExpr(expr: Expr, decls: ReadonlyMap<string, ResponseDeclaration>): Fn {
  const args = 'args' in expr ? expr.args.map((a) => compileExpr(a, decls)) : [];
  const declOf = (id: string) => {
    const decl = decls.get(id);
    if (!decl) throw new ProcessingError(`no response declaration "${id}"`);
    return decl;
  };
  switch (expr.op) {
    case 'baseValue': {
      const value = expr.value;
      return () => value;
    }
    case 'null':
      return () => null;
    case 'variable': {
      const id = expr.id;
      return (ctx) => (id in ctx.responses ? ctx.responses[id] : (ctx.outcomes[id] ?? null));
    }
    case 'correct': {
      const decl = declOf(expr.id);
      const value: QValue = !decl.correct || decl.correct.length === 0 ? null : decl.cardinality === 'single' ? decl.correct[0] : decl.correct;
      return () => value;
    }
    case 'mapResponse': {
      const decl = declOf(expr.id);
      if (!decl.mapping) throw new ProcessingError(`"${expr.id}" has no mapping`);
      const mapping = decl.mapping;
      const id = expr.id;
      return (ctx) => mapResponse(mapping, ctx.responses[id] ?? null);
    }
    case 'mapResponsePoint': {
      const decl = declOf(expr.id);
      if (!decl.areaMapping) throw new ProcessingError(`"${expr.id}" has no area mapping`);
      const mapping = decl.areaMapping;
      const id = expr.id;
      return (ctx) => mapResponsePoint(mapping, ctx.responses[id] ?? null);
    }
    case 'isNull': {
      const [a] = args;
      return (ctx) => a(ctx) === null;
    }
    case 'not': {
      const [a] = args;
      return (ctx) => {
        const v = a(ctx);
        return v === null ? null : !truthy(v);
      };
    }
    case 'containerSize': {
      const [a] = args;
      return (ctx) => containerOf(a(ctx))?.length ?? 0;
    }
    case 'match': {
      const [a, b] = args;
      const ordered = expr.args.some((e) => isOrderedExpr(e, decls));
      return (ctx) => {
        const x = a(ctx);
        const y = b(ctx);
        if (x === null || y === null) return null;
        const xs = isContainer(x);
        const ys = isContainer(y);
        if (xs !== ys) return false;
        if (!xs) return sameScalar(x as Scalar, y as Scalar);
        const cx = x as readonly Scalar[];
        const cy = y as readonly Scalar[];
        if (ordered) return cx.length === cy.length && cx.every((v, i) => sameScalar(v, cy[i]));
        return sameMultiset(cx, cy);
      };
    }
    case 'member': {
      const [a, b] = args;
      return (ctx) => {
        const x = a(ctx);
        const c = containerOf(b(ctx));
        if (x === null || c === null || isContainer(x)) return null;
        return c.some((v) => sameScalar(v, x as Scalar));
      };
    }
    case 'contains': {
      const [a, b] = args;
      return (ctx) => {
        const big = containerOf(a(ctx));
        const small = containerOf(b(ctx));
        if (big === null || small === null) return null;
        const used = new Array<boolean>(big.length).fill(false);
        return small.every((v) => {
          const i = big.findIndex((w, k) => !used[k] && sameScalar(v, w));
          if (i < 0) return false;
          used[i] = true;
          return true;
        });
      };
    }
    case 'and':
    case 'or': {
      const isAnd = expr.op === 'and';
      // QTI: for `and` a false decides over NULL, for `or` a true does; otherwise NULL wins.
      return (ctx) => {
        let sawNull = false;
        for (const f of args) {
          const v = f(ctx);
          if (v === null) sawNull = true;
          else if (truthy(v) !== isAnd) return !isAnd;
        }
        return sawNull ? null : isAnd;
      };
    }
    case 'sum':
    case 'product':
    case 'subtract':
    case 'min':
    case 'max': {
      const op = expr.op;
      return (ctx) => {
        const values: number[] = [];
        for (const f of args) {
          const v = f(ctx);
          if (v === null) return null;
          for (const item of isContainer(v) ? v : [v]) {
            if (typeof item !== 'number') return null;
            values.push(item);
          }
        }
        if (values.length === 0) return null;
        if (op === 'sum') return values.reduce((s, v) => s + v, 0);
        if (op === 'product') return values.reduce((s, v) => s * v, 1);
        if (op === 'subtract') return values[0] - (values[1] ?? 0);
        return op === 'min' ? Math.min(...values) : Math.max(...values);
      };
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const [a, b] = args;
      const op = expr.op;
      return (ctx) => {
        const x = num(a(ctx));
        const y = num(b(ctx));
        if (x === null || y === null) return null;
        return op === 'lt' ? x < y : op === 'lte' ? x <= y : op === 'gt' ? x > y : x >= y;
      };
    }
    case 'multiple':
    case 'ordered':
      return (ctx) => {
        const out: Scalar[] = [];
        for (const f of args) {
          const v = f(ctx);
          if (v === null) continue;
          if (isContainer(v)) out.push(...v);
          else out.push(v);
        }
        return out.length ? out : null;
      };
    case 'stringMatch': {
      const [a, b] = args;
      const caseSensitive = expr.caseSensitive;
      return (ctx) => {
        const x = a(ctx);
        const y = b(ctx);
        if (typeof x !== 'string' || typeof y !== 'string') return null;
        return caseSensitive ? x === y : lower(x) === lower(y);
      };
    }
    case 'equal': {
      const [a, b] = args;
      const { toleranceMode, tolerance, includeLowerBound, includeUpperBound } = expr;
      return (ctx) => {
        const x = num(a(ctx));
        const y = num(b(ctx));
        if (x === null || y === null) return null;
        return withinTolerance(x, y, toleranceMode, tolerance, includeLowerBound, includeUpperBound);
      };
    }
  }
}

/** QTI `equal`: is x within the tolerance of y (relative tolerances are percentages of y)? */
export function withinTolerance(
  x: number,
  y: number,
  mode: 'exact' | 'absolute' | 'relative',
  [t0, t1]: readonly [number, number],
  includeLower = true,
  includeUpper = true,
): boolean {
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  if (mode === 'exact') return x === y;
  let low: number;
  let high: number;
  if (mode === 'absolute') {
    low = y - t0;
    high = y + t1;
  } else {
    const a = y * (1 - t0 / 100);
    const b = y * (1 + t1 / 100);
    low = Math.min(a, b);
    high = Math.max(a, b);
  }
  const aboveLow = includeLower ? x >= low : x > low;
  const belowHigh = includeUpper ? x <= high : x < high;
  return aboveLow && belowHigh;
}

type RuleFn = (ctx: ProcessingContext) => boolean; // false: exitResponse

function compileRules(rules: readonly Rule[], decls: ReadonlyMap<string, ResponseDeclaration>): RuleFn {
  const steps: RuleFn[] = rules.map((rule) => {
    if (rule.type === 'exit') return () => false;
    if (rule.type === 'set') {
      const f = compileExpr(rule.expr, decls);
      const id = rule.id;
      return (ctx) => {
        ctx.outcomes[id] = f(ctx);
        return true;
      };
    }
    const branches = rule.branches.map((b) => ({ when: b.when ? compileExpr(b.when, decls) : null, then: compileRules(b.then, decls) }));
    return (ctx) => {
      for (const branch of branches) {
        if (branch.when === null || truthy(branch.when(ctx))) return branch.then(ctx);
      }
      return true;
    };
  });
  return (ctx) => {
    for (const step of steps) if (!step(ctx)) return false;
    return true;
  };
}

export interface CompiledProcessing {
  /** SCORE after response processing (0 when the rules never set it). */
  (responses: Readonly<Record<string, QValue>>): number;
}

/** Compiles declarations and processing once; the result scores responses. */
export function compileProcessing(declarations: readonly ResponseDeclaration[], processing: Processing): CompiledProcessing {
  const decls = new Map(declarations.map((d) => [d.identifier, d]));
  const run = compileRules(rulesOf(processing), decls);
  return (responses) => {
    const ctx: ProcessingContext = { responses, outcomes: { SCORE: 0 } };
    run(ctx);
    const value = ctx.outcomes.SCORE;
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  };
}

/** Every expression operator the engine evaluates; anything else in imported rules is reported. */
export const SUPPORTED_OPERATORS: ReadonlySet<string> = new Set([
  'baseValue',
  'variable',
  'correct',
  'mapResponse',
  'mapResponsePoint',
  'null',
  'isNull',
  'not',
  'containerSize',
  'match',
  'member',
  'contains',
  'and',
  'or',
  'sum',
  'product',
  'subtract',
  'min',
  'max',
  'lt',
  'lte',
  'gt',
  'gte',
  'multiple',
  'ordered',
  'stringMatch',
  'equal',
]);
