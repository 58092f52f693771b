import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';

/**
 * Guarded XML for QTI files: no DOCTYPE (so no DTD, no internal or external entities, no
 * billion laughs), a size cap before parsing and a node cap after, well-formedness enforced.
 * QTI 2.x camelCase names are read as their QTI 3 kebab-case forms (`choiceInteraction` is
 * `qti-choice-interaction`, `responseIdentifier` is `response-identifier`), so one reader serves
 * both versions (docs/decisions/0121).
 */
export class QtiInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QtiInputError';
  }
}

export const XML_LIMITS = { bytes: 4 * 1024 * 1024, nodes: 100_000, depth: 200 } as const;

export const QTI3_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
export const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export function parseXml(input: Uint8Array | string, label: string, limits = XML_LIMITS): Document {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > limits.bytes) throw new QtiInputError(`${label} is ${size} bytes; an XML file may have at most ${limits.bytes}`);
  let text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: false }).decode(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new QtiInputError(`${label} has a DOCTYPE or ENTITY declaration; QTI files are accepted without DTDs or entities`);
  }
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new QtiInputError(`${label} is not well-formed XML: ${String(message).split('\n')[0]}`);
      },
    }).parseFromString(text, 'text/xml');
  } catch (error) {
    if (error instanceof QtiInputError) throw error;
    const cause = error instanceof Error && error.cause instanceof QtiInputError ? error.cause : null;
    throw cause ?? new QtiInputError(`${label} is not well-formed XML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (!doc.documentElement) throw new QtiInputError(`${label} has no root element`);
  let nodes = 0;
  const walk = (node: Node, depth: number) => {
    nodes += 1;
    if (nodes > limits.nodes) throw new QtiInputError(`${label} has more than ${limits.nodes} XML nodes`);
    if (depth > limits.depth) throw new QtiInputError(`${label} nests deeper than ${limits.depth} elements`);
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, depth + 1);
  };
  walk(doc.documentElement, 0);
  return doc;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** HTML and MathML names that QTI 2.x and 3 share; every other QTI 2.x element gets the qti- prefix. */
const SHARED_NAMES = new Set([
  'a',
  'abbr',
  'acronym',
  'address',
  'article',
  'aside',
  'audio',
  'b',
  'bdi',
  'bdo',
  'big',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'details',
  'dfn',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'i',
  'img',
  'ins',
  'kbd',
  'label',
  'li',
  'map',
  'area',
  'mark',
  'nav',
  'object',
  'ol',
  'p',
  'param',
  'picture',
  'pre',
  'q',
  'rb',
  'rp',
  'rt',
  'rtc',
  'ruby',
  's',
  'samp',
  'section',
  'small',
  'source',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'track',
  'tt',
  'u',
  'ul',
  'var',
  'video',
  'wbr',
  'math',
]);

/** The QTI 3 name of an element, whichever version wrote it (prefix dropped). */
export function qtiName(el: Element): string {
  const local = el.localName ?? el.nodeName;
  if (local.startsWith('qti-') || el.namespaceURI === MATHML_NS) return local;
  if (SHARED_NAMES.has(local)) return local;
  return `qti-${kebab(local).replace(/^-/, '')}`;
}

/** An attribute by its QTI 3 name, read in either spelling (response-identifier / responseIdentifier). */
export function attr(el: Element, name: string): string | null {
  if (el.hasAttribute(name)) return el.getAttribute(name);
  const camel = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return el.hasAttribute(camel) ? el.getAttribute(camel) : null;
}

export function elementChildren(el: Element | Document): Element[] {
  const out: Element[] = [];
  for (let child = el.firstChild; child; child = child.nextSibling) if (child.nodeType === 1) out.push(child as Element);
  return out;
}

export function childrenNamed(el: Element, name: string): Element[] {
  return elementChildren(el).filter((c) => qtiName(c) === name);
}

export function childNamed(el: Element, name: string): Element | undefined {
  return elementChildren(el).find((c) => qtiName(c) === name);
}

export function descendants(el: Element, predicate: (e: Element) => boolean): Element[] {
  const out: Element[] = [];
  const walk = (node: Element) => {
    for (const child of elementChildren(node)) {
      if (predicate(child)) out.push(child);
      walk(child);
    }
  };
  walk(el);
  return out;
}

export function textOf(el: Element): string {
  return el.textContent ?? '';
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
