import type { ItemContent, ItemOf, Marking, PartialCredit, TextAnswer } from './item-schema.ts';
import type { Expr, Mapping, Processing, ResponseDeclaration, Rule } from './qti-engine.ts';

/**
 * An item of ours as QTI response declarations and response processing (docs/decisions/0120).
 * The scorer runs exactly this; the QTI export writes exactly this. A standard template is used
 * when it scores identically (match_correct for +1/0/0 with one key, map_response for short text
 * with 0 for no answer); otherwise the marking rule:
 *
 *   if <nothing answered>            SCORE = marking.unanswered
 *   else if <all correct>            SCORE = marking.correct
 *   else if wrongCancels and <a wrong part>   SCORE = marking.wrong
 *   else                             SCORE = max(wrong, min(correct, <sum of parts>))  | marking.wrong
 */
export interface CompiledItem {
  declarations: ResponseDeclaration[];
  processing: Processing;
  /** Response identifiers in the order of the item's interactions (gaps in order for fill-in-the-blanks). */
  responseIds: string[];
}

export const RESPONSE = 'RESPONSE';

/** Text responses and accepted answers are compared after this: NFC, trimmed, inner white space collapsed. */
export function normalizeText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ');
}

const v = (id: string): Expr => ({ op: 'variable', id });
const correctOf = (id: string): Expr => ({ op: 'correct', id });
const float = (value: number): Expr => ({ op: 'baseValue', baseType: 'float', value });
const set = (expr: Expr): Rule => ({ type: 'set', id: 'SCORE', expr });
const isNull = (id: string): Expr => ({ op: 'isNull', args: [v(id)] });
const matchesKey = (id: string): Expr => ({ op: 'match', args: [v(id), correctOf(id)] });

function markingRules(marking: Marking, parts: { allNull: Expr; allCorrect: Expr; anyWrong?: Expr; partialSum?: Expr }, partial: PartialCredit | null): Rule[] {
  const branches: { when: Expr | null; then: Rule[] }[] = [
    { when: parts.allNull, then: [set(float(marking.unanswered))] },
    { when: parts.allCorrect, then: [set(float(marking.correct))] },
  ];
  if (partial && parts.partialSum) {
    if (partial.wrongCancels && parts.anyWrong) branches.push({ when: parts.anyWrong, then: [set(float(marking.wrong))] });
    const clamped: Expr = { op: 'max', args: [float(marking.wrong), { op: 'min', args: [float(marking.correct), parts.partialSum] }] };
    branches.push({ when: null, then: [set(clamped)] });
  } else {
    branches.push({ when: null, then: [set(float(marking.wrong))] });
  }
  return [{ type: 'condition', branches }];
}

const isUnitMarking = (m: Marking) => m.correct === 1 && m.wrong === 0 && m.unanswered === 0;

/** One key, +1 / 0 / 0 and no partial credit: the match_correct template scores exactly so. */
function keyed(decl: ResponseDeclaration, marking: Marking, extra?: { partial: PartialCredit | null; anyWrong: Expr; partialSum: Expr }): CompiledItem {
  const partial = extra?.partial ?? null;
  const processing: Processing =
    !partial && isUnitMarking(marking)
      ? { template: 'match_correct' }
      : {
          template: null,
          rules: markingRules(
            marking,
            { allNull: isNull(RESPONSE), allCorrect: matchesKey(RESPONSE), anyWrong: extra?.anyWrong, partialSum: extra?.partialSum },
            partial,
          ),
        };
  return { declarations: [decl], processing, responseIds: [RESPONSE] };
}

/** Some part given that is not in the key (options, pairs). */
const anyOutsideKey: Expr = { op: 'not', args: [{ op: 'contains', args: [correctOf(RESPONSE), v(RESPONSE)] }] };

function partsMapping(all: string[], key: string[], partial: PartialCredit | null): Mapping | undefined {
  if (!partial) return undefined;
  const inKey = new Set(key);
  return {
    entries: all.map((k) => ({ key: k, value: inKey.has(k) ? partial.perCorrect : partial.perWrong, caseSensitive: true })),
    defaultValue: partial.perWrong,
  };
}

function answerMatches(id: string, answers: readonly TextAnswer[]): Expr {
  const tests: Expr[] = answers.map((a) => ({
    op: 'stringMatch',
    caseSensitive: a.caseSensitive,
    args: [v(id), { op: 'baseValue', baseType: 'string', value: normalizeText(a.text) }],
  }));
  return tests.length === 1 ? tests[0] : { op: 'or', args: tests };
}

export function compileItem(item: ItemContent): CompiledItem {
  const { marking } = item;
  switch (item.kind) {
    case 'singleChoice':
      return keyed({ identifier: RESPONSE, cardinality: 'single', baseType: 'identifier', correct: [item.correct] }, marking);
    case 'trueFalse':
      return keyed({ identifier: RESPONSE, cardinality: 'single', baseType: 'identifier', correct: [String(item.correct)] }, marking);
    case 'ordering':
      return keyed({ identifier: RESPONSE, cardinality: 'ordered', baseType: 'identifier', correct: [...item.correctOrder] }, marking);
    case 'multipleChoice': {
      const ids = item.options.map((o) => o.id);
      const decl: ResponseDeclaration = {
        identifier: RESPONSE,
        cardinality: 'multiple',
        baseType: 'identifier',
        correct: [...item.correct],
        mapping: partsMapping(ids, item.correct, item.partial),
      };
      return keyed(decl, marking, { partial: item.partial, anyWrong: anyOutsideKey, partialSum: { op: 'mapResponse', id: RESPONSE } });
    }
    case 'matching': {
      const key = item.pairs.map((p) => `${p.left} ${p.right}`);
      const all = item.left.flatMap((l) => item.right.map((r) => `${l.id} ${r.id}`));
      const decl: ResponseDeclaration = {
        identifier: RESPONSE,
        cardinality: 'multiple',
        baseType: 'directedPair',
        correct: key,
        mapping: partsMapping(all, key, item.partial),
      };
      return keyed(decl, marking, { partial: item.partial, anyWrong: anyOutsideKey, partialSum: { op: 'mapResponse', id: RESPONSE } });
    }
    case 'numeric': {
      const decl: ResponseDeclaration = { identifier: RESPONSE, cardinality: 'single', baseType: 'float', correct: [item.answer] };
      if (item.tolerance.value === 0) return keyed(decl, marking);
      const t = item.tolerance.value;
      const within: Expr = {
        op: 'equal',
        toleranceMode: item.tolerance.mode,
        tolerance: [t, t],
        includeLowerBound: true,
        includeUpperBound: true,
        args: [v(RESPONSE), correctOf(RESPONSE)],
      };
      return {
        declarations: [decl],
        processing: { template: null, rules: markingRules(marking, { allNull: isNull(RESPONSE), allCorrect: within }, null) },
        responseIds: [RESPONSE],
      };
    }
    case 'shortText': {
      const best = item.answers.find((a) => a.credit === 1) ?? item.answers[0];
      const decl: ResponseDeclaration = {
        identifier: RESPONSE,
        cardinality: 'single',
        baseType: 'string',
        correct: [normalizeText(best.text)],
        mapping: {
          entries: item.answers.map((a) => ({ key: normalizeText(a.text), value: a.credit * marking.correct, caseSensitive: a.caseSensitive })),
          defaultValue: marking.wrong,
        },
      };
      const processing: Processing =
        marking.unanswered === 0
          ? { template: 'map_response' }
          : {
              template: null,
              rules: [
                {
                  type: 'condition',
                  branches: [
                    { when: isNull(RESPONSE), then: [set(float(marking.unanswered))] },
                    { when: null, then: [set({ op: 'mapResponse', id: RESPONSE })] },
                  ],
                },
              ],
            };
      return { declarations: [decl], processing, responseIds: [RESPONSE] };
    }
    case 'fillInBlanks':
      return compileGaps(item);
    case 'essay':
      // Marked by people; only a blank answer has marks the processing can give.
      return {
        declarations: [{ identifier: RESPONSE, cardinality: 'single', baseType: 'string', correct: null }],
        processing: {
          template: null,
          rules: marking.unanswered === 0 ? [] : [{ type: 'condition', branches: [{ when: isNull(RESPONSE), then: [set(float(marking.unanswered))] }] }],
        },
        responseIds: [RESPONSE],
      };
  }
}

function compileGaps(item: ItemOf<'fillInBlanks'>): CompiledItem {
  const { marking, partial } = item;
  const declarations: ResponseDeclaration[] = item.gaps.map((gap) => ({
    identifier: gap.id,
    cardinality: 'single',
    baseType: 'string',
    correct: [normalizeText(gap.answers[0].text)],
    mapping: partial
      ? {
          entries: gap.answers.map((a) => ({ key: normalizeText(a.text), value: partial.perCorrect, caseSensitive: a.caseSensitive })),
          defaultValue: partial.perWrong,
        }
      : undefined,
  }));
  const ids = item.gaps.map((g) => g.id);
  const all = (args: Expr[]): Expr => (args.length === 1 ? args[0] : { op: 'and', args });
  const any = (args: Expr[]): Expr => (args.length === 1 ? args[0] : { op: 'or', args });
  const gapRight = item.gaps.map((g) => answerMatches(g.id, g.answers));
  const rules = markingRules(
    marking,
    {
      allNull: all(ids.map(isNull)),
      allCorrect: all(gapRight),
      anyWrong: any(
        ids.map((id, i) => ({
          op: 'and',
          args: [
            { op: 'not', args: [isNull(id)] },
            { op: 'not', args: [gapRight[i]] },
          ],
        })),
      ),
      partialSum: { op: 'sum', args: ids.map((id) => ({ op: 'mapResponse', id })) },
    },
    partial,
  );
  return { declarations, processing: { template: null, rules }, responseIds: ids };
}
