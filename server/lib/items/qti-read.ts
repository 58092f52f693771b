import type { Element } from '@xmldom/xmldom';
import {
  parseScalar,
  SUPPORTED_OPERATORS,
  TEMPLATES,
  type AreaMapping,
  type AreaShape,
  type BaseType,
  type Cardinality,
  type Expr,
  type Mapping,
  type Processing,
  type ResponseDeclaration,
  type Rule,
  type TemplateName,
} from '#machines/items/qti-engine.ts';
import { attr, childNamed, childrenNamed, elementChildren, qtiName, textOf } from './qti-xml.ts';

/**
 * Reading QTI response declarations and response processing (either version) into the engine's
 * form (docs/decisions/0121). Anything the engine does not evaluate is reported by name, never
 * approximated.
 */
export class UnsupportedQti extends Error {}

const BASE_TYPES: readonly BaseType[] = ['identifier', 'string', 'float', 'integer', 'boolean', 'pair', 'directedPair', 'point'];
const CARDINALITIES: readonly Cardinality[] = ['single', 'multiple', 'ordered'];

const bool = (value: string | null, fallback: boolean) => (value === null ? fallback : value === 'true' || value === '1');
function number(value: string | null, what: string): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UnsupportedQti(`${what} "${value}" is not a number`);
  return n;
}

export function readDeclaration(el: Element): ResponseDeclaration {
  const identifier = attr(el, 'identifier') ?? '';
  const baseType = attr(el, 'base-type') as BaseType | null;
  const cardinality = attr(el, 'cardinality') as Cardinality | null;
  if (!identifier) throw new UnsupportedQti('a response declaration has no identifier');
  if (cardinality === ('record' as Cardinality)) throw new UnsupportedQti(`response ${identifier} has record cardinality`);
  if (!cardinality || !CARDINALITIES.includes(cardinality)) throw new UnsupportedQti(`response ${identifier} has cardinality "${cardinality}"`);
  if (!baseType || !BASE_TYPES.includes(baseType)) throw new UnsupportedQti(`response ${identifier} has base type "${baseType}"`);
  const value = (text: string) => {
    try {
      return parseScalar(baseType, text);
    } catch (error) {
      throw new UnsupportedQti(`response ${identifier}: ${(error as Error).message}`);
    }
  };
  const correctEl = childNamed(el, 'qti-correct-response');
  const correct = correctEl ? childrenNamed(correctEl, 'qti-value').map((v) => value(textOf(v))) : null;
  const decl: ResponseDeclaration = { identifier, baseType, cardinality, correct };
  const mappingEl = childNamed(el, 'qti-mapping');
  if (mappingEl) {
    const mapping: Mapping = {
      entries: childrenNamed(mappingEl, 'qti-map-entry').map((e) => ({
        key: value(attr(e, 'map-key') ?? ''),
        value: number(attr(e, 'mapped-value'), 'mapped-value') ?? 0,
        // QTI 3 makes it optional with false as the default; QTI 2.x always states it.
        caseSensitive: bool(attr(e, 'case-sensitive'), false),
      })),
      defaultValue: number(attr(mappingEl, 'default-value'), 'default-value') ?? 0,
      lowerBound: number(attr(mappingEl, 'lower-bound'), 'lower-bound'),
      upperBound: number(attr(mappingEl, 'upper-bound'), 'upper-bound'),
    };
    decl.mapping = mapping;
  }
  const areaEl = childNamed(el, 'qti-area-mapping');
  if (areaEl) {
    const areas: AreaMapping = {
      entries: childrenNamed(areaEl, 'qti-area-map-entry').map((e) => ({
        shape: (attr(e, 'shape') ?? 'default') as AreaShape,
        coords: (attr(e, 'coords') ?? '')
          .split(',')
          .filter((c) => c.trim() !== '')
          .map(Number),
        value: number(attr(e, 'mapped-value'), 'mapped-value') ?? 0,
      })),
      defaultValue: number(attr(areaEl, 'default-value'), 'default-value') ?? 0,
      lowerBound: number(attr(areaEl, 'lower-bound'), 'lower-bound'),
      upperBound: number(attr(areaEl, 'upper-bound'), 'upper-bound'),
    };
    decl.areaMapping = areas;
  }
  return decl;
}

/** The template named by a URI of either version (…/rptemplates/match_correct, …/match_correct.xml). */
export function templateFromUri(uri: string): TemplateName | null {
  const last =
    uri
      .trim()
      .split('/')
      .pop()
      ?.replace(/\.xml$/i, '') ?? '';
  return (TEMPLATES as readonly string[]).includes(last) ? (last as TemplateName) : null;
}

const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export function readExpr(el: Element): Expr {
  const name = qtiName(el);
  const op = camel(name.replace(/^qti-/, ''));
  if (!SUPPORTED_OPERATORS.has(op)) throw new UnsupportedQti(`response processing uses ${name}, which is not supported`);
  const args = () => elementChildren(el).map(readExpr);
  switch (op) {
    case 'baseValue': {
      const baseType = attr(el, 'base-type') as BaseType;
      if (!BASE_TYPES.includes(baseType)) throw new UnsupportedQti(`base value of type "${baseType}"`);
      try {
        return { op, baseType, value: parseScalar(baseType, textOf(el)) };
      } catch (error) {
        throw new UnsupportedQti((error as Error).message);
      }
    }
    case 'variable':
    case 'correct':
    case 'mapResponse':
    case 'mapResponsePoint':
      return { op, id: attr(el, 'identifier') ?? '' };
    case 'null':
      return { op };
    case 'stringMatch':
      if (bool(attr(el, 'substring'), false)) throw new UnsupportedQti('qti-string-match with substring="true" is not supported');
      return { op, caseSensitive: bool(attr(el, 'case-sensitive'), true), args: args() };
    case 'equal': {
      const mode = (attr(el, 'tolerance-mode') ?? 'exact') as 'exact' | 'absolute' | 'relative';
      if (!['exact', 'absolute', 'relative'].includes(mode)) throw new UnsupportedQti(`tolerance mode "${mode}"`);
      const parts = (attr(el, 'tolerance') ?? '0').trim().split(/\s+/).map(Number);
      if (parts.some((p) => !Number.isFinite(p))) throw new UnsupportedQti('a tolerance refers to a variable, which is not supported');
      return {
        op,
        toleranceMode: mode,
        tolerance: [parts[0] ?? 0, parts[1] ?? parts[0] ?? 0],
        includeLowerBound: bool(attr(el, 'include-lower-bound'), true),
        includeUpperBound: bool(attr(el, 'include-upper-bound'), true),
        args: args(),
      };
    }
    default:
      return { op, args: args() } as Expr;
  }
}

export function readRules(parent: Element): Rule[] {
  return elementChildren(parent).map(readRule);
}

function readRule(el: Element): Rule {
  const name = qtiName(el);
  if (name === 'qti-exit-response') return { type: 'exit' };
  if (name === 'qti-set-outcome-value') {
    const [expr] = elementChildren(el);
    if (!expr) throw new UnsupportedQti('qti-set-outcome-value without a value');
    return { type: 'set', id: attr(el, 'identifier') ?? '', expr: readExpr(expr) };
  }
  if (name === 'qti-response-condition') {
    return {
      type: 'condition',
      branches: elementChildren(el).map((branch) => {
        const branchName = qtiName(branch);
        if (branchName === 'qti-response-else') return { when: null, then: readRules(branch) };
        if (branchName !== 'qti-response-if' && branchName !== 'qti-response-else-if') throw new UnsupportedQti(`${branchName} in a response condition`);
        const [first, ...rest] = elementChildren(branch);
        if (!first) throw new UnsupportedQti(`${branchName} without a condition`);
        return { when: readExpr(first), then: rest.map(readRule) };
      }),
    };
  }
  throw new UnsupportedQti(`response processing uses ${name}, which is not supported`);
}

/** The item's response processing: a template, its own rules, or none (null). */
export function readProcessing(el: Element | undefined): Processing | null {
  if (!el) return null;
  const uri = attr(el, 'template');
  const children = elementChildren(el);
  if (uri && children.length === 0) {
    const template = templateFromUri(uri);
    if (!template) throw new UnsupportedQti(`the response processing template ${uri} is not one of ${TEMPLATES.join(', ')}`);
    return { template };
  }
  return { template: null, rules: readRules(el) };
}
