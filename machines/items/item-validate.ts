import { Errors } from 'typebox/value';
import { ItemContentSchema, ITEM_KINDS, type Choice, type ItemContent, type TextAnswer, type Variant } from './item-schema.ts';

/**
 * Validation of item content beyond the JSON schema: ids, keys and every language variant agree
 * with each other. The server validates with this before storing; the editor shows the same
 * messages (docs/decisions/0120).
 */
export interface ItemIssue {
  path: string;
  message: string;
}

const GAP = /<span\b[^>]*\bdata-gap="([^"]*)"[^>]*>/g;
const MEDIA = /\b(?:src|href|data)="media:([^"]*)"/g;
const RESERVED = new Set(['SCORE', 'MAXSCORE', 'RESPONSE', 'true', 'false']);

export function gapIdsIn(html: string): string[] {
  return [...html.matchAll(GAP)].map((m) => m[1]);
}

export function mediaKeysIn(html: string): string[] {
  return [...html.matchAll(MEDIA)].map((m) => m[1]);
}

/** Choice ids of an item, in the order they appear. */
export function choiceIdsOf(item: ItemContent): string[] {
  switch (item.kind) {
    case 'singleChoice':
    case 'multipleChoice':
    case 'ordering':
      return item.options.map((o) => o.id);
    case 'matching':
      return [...item.left, ...item.right].map((o) => o.id);
    default:
      return [];
  }
}

function htmlOf(variant: Variant): string[] {
  return [variant.stem, ...Object.values(variant.choices ?? {}), variant.rubric ?? ''];
}

/** An answer that can never be the one matched: an earlier answer already accepts everything it would. */
function checkShadowed(answers: readonly TextAnswer[], path: string, issues: ItemIssue[]) {
  answers.forEach((answer, j) => {
    const shadowed = answers
      .slice(0, j)
      .some((earlier) =>
        earlier.caseSensitive
          ? answer.caseSensitive && earlier.text.trim() === answer.text.trim()
          : earlier.text.trim().toLowerCase() === answer.text.trim().toLowerCase(),
      );
    if (shadowed) issues.push({ path: `${path}/${j}`, message: `"${answer.text}" is already accepted by an earlier answer` });
  });
}

function checkKeepLast(options: readonly Choice[], path: string, issues: ItemIssue[]) {
  const first = options.findIndex((o) => o.keepLast);
  if (first >= 0 && options.slice(first).some((o) => !o.keepLast)) {
    issues.push({ path, message: 'options kept last must come after all the others' });
  }
}

export function checkItemContent(value: unknown): ItemIssue[] {
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  const schema = ItemContentSchema.anyOf.find((s) => s.properties.kind.const === kind);
  if (!schema) return [{ path: '/kind', message: `kind must be one of ${ITEM_KINDS.join(', ')}` }];
  const schemaErrors = Errors(schema, value);
  if (schemaErrors.length) {
    // An unknown property is named by its own 'false schema' error; the generic one adds nothing.
    // TypeBox stops after its `maxErrors` setting (8), which keeps the list short.
    return schemaErrors
      .filter((e) => e.keyword !== 'additionalProperties')
      .map((e) => ({
        path: e.instancePath || '/',
        message:
          e.keyword !== 'boolean'
            ? e.message
            : /^\/variants\/[^/]+$/.test(e.instancePath)
              ? 'is not a language tag (en, hi, gu, …)'
              : `is not a property of a ${String(kind)} item`,
      }));
  }
  const item = value as ItemContent;
  const issues: ItemIssue[] = [];
  const ids = choiceIdsOf(item);
  const idSet = new Set(ids);
  if (idSet.size !== ids.length) issues.push({ path: '/options', message: 'option ids must be unique in the item' });

  const languages = Object.keys(item.variants);
  if (languages.length === 0) issues.push({ path: '/variants', message: 'at least one language variant is needed' });

  switch (item.kind) {
    case 'singleChoice':
      checkKeepLast(item.options, '/options', issues);
      if (!idSet.has(item.correct)) issues.push({ path: '/correct', message: 'the correct option is not one of the options' });
      break;
    case 'multipleChoice': {
      checkKeepLast(item.options, '/options', issues);
      if (new Set(item.correct).size !== item.correct.length) issues.push({ path: '/correct', message: 'correct options are listed twice' });
      if (item.correct.some((id) => !idSet.has(id))) issues.push({ path: '/correct', message: 'a correct option is not one of the options' });
      if (item.maxChoices !== 0 && item.maxChoices < item.correct.length) {
        issues.push({ path: '/maxChoices', message: 'maxChoices is smaller than the number of correct options' });
      }
      if (item.maxChoices !== 0 && item.minChoices > item.maxChoices) issues.push({ path: '/minChoices', message: 'minChoices is above maxChoices' });
      break;
    }
    case 'ordering':
      checkKeepLast(item.options, '/options', issues);
      if (item.correctOrder.length !== ids.length || new Set(item.correctOrder).size !== ids.length || item.correctOrder.some((id) => !idSet.has(id))) {
        issues.push({ path: '/correctOrder', message: 'the correct order must list every option once' });
      }
      break;
    case 'matching': {
      checkKeepLast(item.left, '/left', issues);
      checkKeepLast(item.right, '/right', issues);
      const left = new Set(item.left.map((o) => o.id));
      const right = new Set(item.right.map((o) => o.id));
      const seen = new Set<string>();
      item.pairs.forEach((p, i) => {
        if (!left.has(p.left) || !right.has(p.right)) issues.push({ path: `/pairs/${i}`, message: 'a pair names a member that does not exist' });
        const key = `${p.left} ${p.right}`;
        if (seen.has(key)) issues.push({ path: `/pairs/${i}`, message: 'a pair is listed twice' });
        seen.add(key);
      });
      break;
    }
    case 'essay':
      if (item.marking.wrong !== 0) issues.push({ path: '/marking/wrong', message: 'an essay is marked by people from 0 up; it has no marks for wrong' });
      break;
    case 'shortText': {
      if (!item.answers.some((a) => a.credit === 1)) issues.push({ path: '/answers', message: 'at least one accepted answer must earn full marks' });
      checkShadowed(item.answers, '/answers', issues);
      break;
    }
    case 'fillInBlanks': {
      const gapIds = item.gaps.map((g) => g.id);
      if (new Set(gapIds).size !== gapIds.length) issues.push({ path: '/gaps', message: 'gap ids must be unique' });
      gapIds.forEach((id, i) => {
        if (RESERVED.has(id)) issues.push({ path: `/gaps/${i}/id`, message: `${id} cannot be a gap id` });
      });
      item.gaps.forEach((gap, i) => checkShadowed(gap.answers, `/gaps/${i}/answers`, issues));
      for (const lang of languages) {
        const found = gapIdsIn(item.variants[lang].stem);
        const sorted = (xs: string[]) => [...xs].sort().join(' ');
        if (sorted(found) !== sorted(gapIds)) {
          issues.push({ path: `/variants/${lang}/stem`, message: 'the text must hold every gap exactly once' });
        }
      }
      break;
    }
    default:
      break;
  }

  if (item.kind === 'shortText' || item.kind === 'numeric') {
    for (const lang of languages) {
      const found = gapIdsIn(item.variants[lang].stem);
      if (found.length > 1 || found.some((id) => id !== 'RESPONSE')) {
        issues.push({ path: `/variants/${lang}/stem`, message: 'the answer box may appear once, as data-gap="RESPONSE"' });
      }
    }
  }

  const mediaKeys = new Set(item.media.map((m) => m.key));
  if (mediaKeys.size !== item.media.length) issues.push({ path: '/media', message: 'media keys must be unique' });
  for (const lang of languages) {
    const variant = item.variants[lang];
    const choiceIds = Object.keys(variant.choices ?? {});
    if (ids.length > 0) {
      if (choiceIds.length !== ids.length || ids.some((id) => typeof variant.choices?.[id] !== 'string')) {
        issues.push({ path: `/variants/${lang}/choices`, message: 'every option needs its text in this language' });
      }
    } else if (choiceIds.length > 0) {
      issues.push({ path: `/variants/${lang}/choices`, message: 'this kind has no options' });
    }
    if (variant.rubric && item.kind !== 'essay') issues.push({ path: `/variants/${lang}/rubric`, message: 'only essays have a rubric' });
    if (item.kind !== 'fillInBlanks' && item.kind !== 'shortText' && item.kind !== 'numeric' && gapIdsIn(variant.stem).length) {
      issues.push({ path: `/variants/${lang}/stem`, message: 'only text-entry kinds have gaps' });
    }
    for (const key of htmlOf(variant).flatMap(mediaKeysIn)) {
      if (!mediaKeys.has(key)) issues.push({ path: `/variants/${lang}`, message: `media:${key} is not among the item's media` });
    }
  }
  return issues;
}

export function isValidItemContent(value: unknown): value is ItemContent {
  return checkItemContent(value).length === 0;
}
