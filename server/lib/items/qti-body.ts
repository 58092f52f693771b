import type { Element, Node } from '@xmldom/xmldom';
import { sanitizeItemHtml } from './item-html.ts';
import { attr, childNamed, elementChildren, MATHML_NS, qtiName, XML_NS } from './qti-xml.ts';

/**
 * QTI item-body XML to our item HTML (docs/decisions/0121): XHTML and MathML pass through the
 * item allow list; media references are resolved to `media:<key>`; interactions are replaced
 * by what the caller says (a gap placeholder, the prompt, nothing); QTI-only content that has
 * no place in our items (feedback, printed variables, …) is dropped and reported.
 */
export interface BodyContext {
  /** The media key of a URL as written in the item, or null when the file is not in the package. */
  media: (src: string) => string | null;
  /** What replaces an interaction element: HTML text, or null to drop it. */
  interaction: (el: Element) => string | null;
  warn: (message: string) => void;
}

const VOID = new Set(['br', 'hr', 'img', 'col', 'source', 'wbr', 'area', 'param', 'track']);
const DROPPED = new Set([
  'qti-feedback-inline',
  'qti-feedback-block',
  'qti-modal-feedback',
  'qti-printed-variable',
  'qti-template-inline',
  'qti-template-block',
  'qti-rubric-block',
  'qti-stylesheet',
  'qti-catalog-info',
  'qti-companion-materials-info',
]);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (text: string) => escapeText(text).replace(/"/g, '&quot;');

export function isInteraction(el: Element): boolean {
  return /^qti-.*-interaction$/.test(qtiName(el));
}

function elementHtml(el: Element, ctx: BodyContext): string {
  const name = qtiName(el);
  if (isInteraction(el)) return ctx.interaction(el) ?? '';
  if (DROPPED.has(name)) {
    ctx.warn(`${name} was left out (no place for it in an item)`);
    return '';
  }
  if (name === 'qti-prompt' || name === 'qti-content-body') return childrenHtml(el, ctx);
  if (name.startsWith('qti-')) {
    ctx.warn(`${name} was left out`);
    return '';
  }
  let tag = el.namespaceURI === MATHML_NS ? (el.localName ?? name) : name;
  const attrs: string[] = [];
  // QTI 2.x often embeds pictures as <object data=… type="image/…">; we keep them as img/audio/video.
  if (tag === 'object') {
    const type = attr(el, 'type') ?? '';
    tag = type.startsWith('audio/') ? 'audio' : type.startsWith('video/') ? 'video' : 'img';
  }
  for (let i = 0; i < el.attributes.length; i += 1) {
    const a = el.attributes[i];
    let name = a.localName ?? a.name;
    let value = a.value;
    if (a.namespaceURI === XML_NS && name === 'lang') name = 'lang';
    else if (a.namespaceURI && a.namespaceURI !== XML_NS) continue;
    if (name === 'data' && el.localName === 'object') name = 'src';
    if (name === 'src') {
      const key = ctx.media(value);
      if (!key) {
        ctx.warn(`the file ${value} is not in the package; the reference was left out`);
        continue;
      }
      value = `media:${key}`;
    }
    attrs.push(` ${name}="${escapeAttr(value)}"`);
  }
  if (el.localName === 'object' && tag !== 'img') attrs.push(' controls=""');
  const open = `<${tag}${attrs.join('')}>`;
  if (VOID.has(tag)) return open;
  const inner = el.localName === 'object' && tag === 'img' ? '' : childrenHtml(el, ctx);
  return `${open}${inner}</${tag}>`;
}

export function nodeHtml(node: Node, ctx: BodyContext): string {
  if (node.nodeType === 3 || node.nodeType === 4) return escapeText(node.nodeValue ?? '');
  if (node.nodeType === 1) return elementHtml(node as Element, ctx);
  return '';
}

export function childrenHtml(el: Element, ctx: BodyContext): string {
  let out = '';
  for (let c = el.firstChild; c; c = c.nextSibling) out += nodeHtml(c, ctx);
  return out;
}

/** The HTML of an element's children, through the allow list. */
export function contentHtml(el: Element, ctx: BodyContext): string {
  return sanitizeItemHtml(childrenHtml(el, ctx)).trim();
}

/** Is this interaction the only thing in its parent block (apart from white space)? */
export function aloneInParent(el: Element): boolean {
  const parent = el.parentNode as Element | null;
  if (!parent || qtiName(parent) === 'qti-item-body') return false;
  for (let c = parent.firstChild; c; c = c.nextSibling) {
    if (c === el) continue;
    if (c.nodeType === 1) return false;
    if ((c.nodeType === 3 || c.nodeType === 4) && (c.nodeValue ?? '').trim() !== '') return false;
  }
  return true;
}

/** The prompt of a block interaction as HTML (a paragraph when it is bare text). */
export function promptHtml(interaction: Element, ctx: BodyContext): string {
  const prompt = childNamed(interaction, 'qti-prompt');
  if (!prompt) return '';
  const blocks = elementChildren(prompt).some((c) => ['p', 'div', 'ul', 'ol', 'table', 'blockquote', 'pre'].includes(qtiName(c)));
  const inner = childrenHtml(prompt, ctx);
  return blocks ? inner : `<p>${inner.trim()}</p>`;
}
