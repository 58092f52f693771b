import type { ItemContent } from '#machines/items/item-schema.ts';

/**
 * Plain text of an answer and of the key for the answer sheet (issue 20): choice ids become
 * their text in the candidate's medium, pairs read "left → right", gaps "1: text". Empty
 * answers are null (the screen says "not answered").
 */
type Variant = { stem: string; choices?: Record<string, string>; rubric?: string | null };

export function variantOf(content: ItemContent, medium: string): Variant {
  const variants = content.variants as Record<string, Variant>;
  return variants[medium] ?? variants.en ?? Object.values(variants)[0];
}

export function plainText(html: string): string {
  return (
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      // `&amp;` last, so an escaped entity such as `&amp;lt;` reads `&lt;` and is not decoded twice.
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const choice = (v: Variant, id: string) => (v.choices?.[id] ? plainText(v.choices[id]) : id);

export function answerText(content: ItemContent, response: unknown, medium: string): string | null {
  const v = variantOf(content, medium);
  if (response === null || response === undefined || response === '') return null;
  switch (content.kind) {
    case 'singleChoice':
      return typeof response === 'string' ? choice(v, response) : null;
    case 'multipleChoice':
    case 'ordering':
      return Array.isArray(response) && response.length ? response.map((id) => choice(v, String(id))).join(content.kind === 'ordering' ? ' → ' : ', ') : null;
    case 'matching':
      return Array.isArray(response) && response.length
        ? (response as Array<[string, string]>).map(([l, r]) => `${choice(v, l)} → ${choice(v, r)}`).join('; ')
        : null;
    case 'fillInBlanks': {
      const gaps = Object.entries(response as Record<string, string>).filter(([, text]) => typeof text === 'string' && text.trim() !== '');
      return gaps.length ? gaps.map(([id, text]) => `${id}: ${text}`).join('; ') : null;
    }
    case 'trueFalse':
    case 'numeric':
    case 'shortText':
    case 'essay':
      return String(response);
  }
}

/** The key as text, or null for an essay (marked by a person against the rubric). */
export function keyText(content: ItemContent, medium: string): string | null {
  const v = variantOf(content, medium);
  switch (content.kind) {
    case 'singleChoice':
      return choice(v, content.correct);
    case 'multipleChoice':
      return content.correct.map((id) => choice(v, id)).join(', ');
    case 'trueFalse':
      return String(content.correct);
    case 'numeric':
      return String(content.answer);
    case 'shortText':
      return content.answers.map((a) => a.text).join(' / ');
    case 'fillInBlanks':
      return content.gaps.map((g) => `${g.id}: ${g.answers.map((a) => a.text).join(' / ')}`).join('; ');
    case 'matching':
      return content.pairs.map((p) => `${choice(v, p.left)} → ${choice(v, p.right)}`).join('; ');
    case 'ordering':
      return content.correctOrder.map((id) => choice(v, id)).join(' → ');
    case 'essay':
      return null;
  }
}
