import { compileItem, normalizeText, RESPONSE, type CompiledItem } from './compile-item.ts';
import type { ItemContent, ItemResponse } from './item-schema.ts';
import { compileProcessing, type CompiledProcessing, type QValue, type TemplateName } from './qti-engine.ts';

/**
 * The one scorer (EXAMS.md §5, docs/decisions/0120): the server scores deliveries with it and
 * the client previews with it. `score(item, response)` compiles the item into QTI response
 * processing once (cached per item object) and runs it.
 */
export type Outcome = 'unanswered' | 'correct' | 'partial' | 'wrong' | 'awaitingMarking';

export interface ScoreResult {
  /** Marks earned; null while a person has still to mark it (an answered essay). */
  score: number | null;
  maxScore: number;
  minScore: number;
  outcome: Outcome;
  needsHumanMarking: boolean;
  /** The QTI response-processing template that scored it, or null for the marking rule. */
  template: TemplateName | null;
  /** Each part given (option, pair, gap) and whether it is in the key. */
  parts: { id: string; correct: boolean }[];
  /** Essays: words written, and whether that is over the word limit. */
  words?: { count: number; overLimit: boolean };
}

export class InvalidResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidResponseError';
  }
}

interface Prepared {
  compiled: CompiledItem;
  run: CompiledProcessing;
  /** Options or pairs in the key, for the parts of a response. */
  key: ReadonlySet<string>;
}
const cache = new WeakMap<ItemContent, Prepared>();

function prepare(item: ItemContent): Prepared {
  let prepared = cache.get(item);
  if (!prepared) {
    const compiled = compileItem(item);
    const key = item.kind === 'multipleChoice' ? item.correct : item.kind === 'matching' ? item.pairs.map((p) => `${p.left} ${p.right}`) : [];
    prepared = { compiled, run: compileProcessing(compiled.declarations, compiled.processing), key: new Set(key) };
    cache.set(item, prepared);
  }
  return prepared;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A typed number: digits with an optional decimal point and exponent; anything else is a wrong answer (NaN). */
export function parseNumberResponse(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  const text = value.trim();
  if (text === '') return null;
  return NUMBER.test(text) ? Number(text) : Number.NaN;
}

const textOrNull = (s: string): string | null => {
  const t = normalizeText(s);
  return t === '' ? null : t;
};

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((x) => typeof x === 'string');
}

// Module-level rather than a closure per call: the scorer runs a million times in a row.
function single(value: QValue): Record<string, QValue> {
  return { [RESPONSE]: value };
}

/** The response in QTI form, or a reason it has the wrong shape for this kind. */
export function toQtiResponses(item: ItemContent, response: ItemResponse | undefined): Record<string, QValue> | string {
  const r = response ?? null;
  switch (item.kind) {
    case 'singleChoice':
      if (r === null || typeof r === 'string') return single(r === '' ? null : r);
      return 'a single choice takes one option id';
    case 'trueFalse':
      if (r === null || typeof r === 'boolean') return single(r === null ? null : String(r));
      return 'true/false takes true or false';
    case 'multipleChoice':
    case 'ordering':
      if (r === null) return single(null);
      if (!isStringArray(r)) return `${item.kind === 'ordering' ? 'ordering' : 'multiple choice'} takes a list of option ids`;
      if (item.kind === 'multipleChoice') return single(r.length ? [...new Set(r)] : null);
      return single(r.length ? r : null);
    case 'matching':
      if (r === null) return single(null);
      if (!Array.isArray(r) || !r.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')) {
        return 'matching takes a list of [left, right] pairs';
      }
      return single(r.length ? [...new Set((r as [string, string][]).map(([a, b]) => `${a} ${b}`))] : null);
    case 'numeric':
      if (r === null) return single(null);
      if (typeof r === 'number' || typeof r === 'string') return single(parseNumberResponse(r));
      return 'a numeric answer takes a number or its text';
    case 'shortText':
    case 'essay':
      if (r === null) return single(null);
      if (typeof r === 'string') return single(item.kind === 'essay' ? (r.trim() === '' ? null : r) : textOrNull(r));
      return 'a text answer takes text';
    case 'fillInBlanks': {
      if (r === null) return Object.fromEntries(item.gaps.map((g) => [g.id, null]));
      if (typeof r !== 'object' || Array.isArray(r)) return 'fill-in-the-blanks takes the text of each gap by gap id';
      const out: Record<string, QValue> = {};
      for (const gap of item.gaps) {
        const text = (r as Record<string, unknown>)[gap.id];
        if (text !== undefined && text !== null && typeof text !== 'string') return `gap ${gap.id} takes text`;
        out[gap.id] = typeof text === 'string' ? textOrNull(text) : null;
      }
      return out;
    }
  }
}

const round = (x: number) => Math.round(x * 1e9) / 1e9;

function isUnanswered(responses: Record<string, QValue>): boolean {
  for (const key in responses) if (responses[key] !== null) return false;
  return true;
}

function partsOf(item: ItemContent, key: ReadonlySet<string>, responses: Record<string, QValue>): { id: string; correct: boolean }[] {
  const given = responses[RESPONSE];
  switch (item.kind) {
    case 'multipleChoice':
    case 'matching':
      return Array.isArray(given) ? (given as string[]).map((id) => ({ id, correct: key.has(id) })) : [];
    case 'fillInBlanks':
      return item.gaps
        .filter((g) => responses[g.id] !== null)
        .map((g) => {
          const text = responses[g.id] as string;
          return {
            id: g.id,
            correct: g.answers.some((a) => {
              const answer = normalizeText(a.text);
              return a.caseSensitive ? answer === text : answer.toLowerCase() === text.toLowerCase();
            }),
          };
        });
    default:
      return [];
  }
}

export function countWords(text: string): number {
  const words = text.trim().split(/\s+/u);
  return words.length === 1 && words[0] === '' ? 0 : words.length;
}

/**
 * Scores one response. Throws InvalidResponseError when the response has the wrong shape for the
 * item's kind (the server refuses such a save with 400 before it gets here).
 */
export function score(item: ItemContent, response: ItemResponse | undefined): ScoreResult {
  const { compiled, run, key } = prepare(item);
  const responses = toQtiResponses(item, response);
  if (typeof responses === 'string') throw new InvalidResponseError(responses);
  const { marking } = item;
  const maxScore = marking.correct;
  const minScore = Math.min(marking.wrong, marking.unanswered);
  const template = compiled.processing.template;
  const unanswered = isUnanswered(responses);

  if (item.kind === 'essay') {
    const text = responses[RESPONSE];
    const count = typeof text === 'string' ? countWords(text) : 0;
    const words = { count, overLimit: item.wordLimit !== null && count > item.wordLimit };
    if (unanswered) {
      return { score: marking.unanswered, maxScore, minScore, outcome: 'unanswered', needsHumanMarking: false, template, parts: [], words };
    }
    return { score: null, maxScore, minScore, outcome: 'awaitingMarking', needsHumanMarking: true, template, parts: [], words };
  }

  // "Human marking" (issue 20): an answered item set to be marked by a person waits for the marking queue.
  if (marking.byPerson && !unanswered) {
    return { score: null, maxScore, minScore, outcome: 'awaitingMarking', needsHumanMarking: true, template, parts: [] };
  }

  const value = round(run(responses));
  const outcome: Outcome = unanswered ? 'unanswered' : value >= maxScore ? 'correct' : value > 0 ? 'partial' : 'wrong';
  return { score: value, maxScore, minScore, outcome, needsHumanMarking: false, template, parts: partsOf(item, key, responses) };
}

/** The compiled QTI form of an item (for export and for tests). */
export function compiledForm(item: ItemContent): CompiledItem {
  return prepare(item).compiled;
}
