import { checkItemContent } from '#machines/items/item-validate.ts';
import type { ItemContent, Variant } from '#machines/items/item-schema.ts';
import { score } from '#machines/items/score.ts';
import { ValidationFailure } from '#server/lib/errors.ts';
import { sanitizeItemHtml } from '#server/lib/items/item-html.ts';

/**
 * What the item bank does to content before storing it (docs/decisions/0122, 0124): every rich
 * field through the server's allow list, then the content rules of `checkItemContent`; and the
 * fields the list reads (languages, plain stems, the maximum score) derived from it.
 */

const sanitizeVariant = (variant: Variant): Variant => {
  const out: Variant = { stem: sanitizeItemHtml(variant.stem) };
  if (variant.choices) out.choices = Object.fromEntries(Object.entries(variant.choices).map(([id, html]) => [id, sanitizeItemHtml(String(html))]));
  if (variant.rubric !== undefined) out.rubric = variant.rubric === null ? null : sanitizeItemHtml(variant.rubric);
  return out;
};

/** `/options/0/id` → `content.options[0].id` (the field names of the 400). */
export function issuePath(pointer: string, root = 'content'): string {
  const parts = pointer.split('/').filter(Boolean);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : `${path}.${part}`), root);
}

/**
 * Sanitizes and checks content sent by a client or an import. Throws a 400 naming each problem;
 * returns the content as it will be stored.
 */
export function prepareContent(value: unknown, root = 'content'): ItemContent {
  const shapeIssues = checkItemContent(value);
  if (shapeIssues.length) throw issuesFailure(shapeIssues, root);
  const item = value as ItemContent;
  const cleaned = {
    ...item,
    variants: Object.fromEntries(Object.entries(item.variants).map(([lang, variant]) => [lang, sanitizeVariant(variant)])),
  } as ItemContent;
  // Sanitizing can remove what a rule needed (a gap placeholder inside a dropped element).
  const issues = checkItemContent(cleaned);
  if (issues.length) throw issuesFailure(issues, root);
  return cleaned;
}

function issuesFailure(issues: Array<{ path: string; message: string }>, root: string) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[issuePath(issue.path, root)] ??= []).push(issue.message);
  return new ValidationFailure(errors);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of item HTML: tags dropped, the common entities read, white space collapsed. */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === '#') {
        const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

export interface DerivedFields {
  languages: string[];
  primaryLanguage: string;
  primaryStem: string;
  searchText: string;
  maxScore: number;
}

/**
 * The list's columns: languages present (sorted), the primary language (the first of the
 * project's languages that is present, else the first present) and its plain stem (compared for
 * duplicates), the lower-cased search text (code and every stem) and the maximum score.
 */
export function deriveFields(content: ItemContent, code: string, projectLanguages: readonly string[]): DerivedFields {
  const languages = Object.keys(content.variants).sort();
  const primaryLanguage = projectLanguages.find((lang) => languages.includes(lang)) ?? languages[0] ?? 'en';
  const stems = languages.map((lang) => plainText(content.variants[lang].stem));
  const primaryStem = plainText(content.variants[primaryLanguage]?.stem ?? '').slice(0, 2000);
  const searchText = `${code} ${stems.join(' ')}`.toLowerCase().slice(0, 20_000);
  return { languages, primaryLanguage, primaryStem, searchText, maxScore: score(content, null).maxScore };
}
