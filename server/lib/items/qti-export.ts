import { DOMImplementation, DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { compileItem, RESPONSE } from '#machines/items/compile-item.ts';
import type { ItemContent, MediaRef } from '#machines/items/item-schema.ts';
import { formatScalar, type Expr, type ResponseDeclaration, type Rule } from '#machines/items/qti-engine.ts';
import { MATHML_TAGS, sanitizeItemHtml } from './item-html.ts';
import { MATHML_NS, QTI3_NS, XML_NS } from './qti-xml.ts';
import { writeZip } from './qti-zip.ts';

/**
 * QTI 3.0 export (docs/decisions/0121): each language variant of an item is one
 * `qti-assessment-item` file (`items/<identifier>/<lang>.xml`, the same identifier, its own
 * xml:lang), with the item's media beside it, listed in an IMS content package manifest. The
 * response declarations and processing are the scorer's own compiled form (compile-item.ts).
 */
export interface ExportItem {
  /** Item id (a QTI identifier is derived from it). */
  id: string;
  title: string;
  content: ItemContent;
}
/** The bytes of a referenced category file; null when it cannot be had. */
export type MediaResolver = (ref: MediaRef, item: ExportItem) => Promise<Buffer | null>;

export class QtiExportError extends Error {}

const TEMPLATE_BASE = 'https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/';
const SCHEMA_LOCATION = `${QTI3_NS} https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0p1_v1p0.xsd`;
const CP_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** Labels of true/false in the languages we know; others fall back to English. */
const TRUE_FALSE: Record<string, [string, string]> = {
  en: ['True', 'False'],
  hi: ['सही', 'गलत'],
  gu: ['સાચું', 'ખોટું'],
  fr: ['Vrai', 'Faux'],
  es: ['Verdadero', 'Falso'],
};

export function qtiIdentifier(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `item-${cleaned}`;
}

export function mediaFileName(ref: MediaRef): string {
  return ref.fileName.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || 'file';
}

class Writer {
  readonly doc: Document;
  constructor(
    root: string,
    private readonly ns = QTI3_NS,
  ) {
    this.doc = new DOMImplementation().createDocument(ns, root, null);
  }
  el(name: string, attrs: Record<string, string | number | boolean | undefined> = {}, children: (Node | string)[] = []): Element {
    const e = this.doc.createElementNS(this.ns, name);
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, String(v));
    for (const c of children) e.appendChild(typeof c === 'string' ? this.doc.createTextNode(c) : c);
    return e;
  }
}

function exprXml(w: Writer, expr: Expr): Element {
  const name = `qti-${expr.op.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  switch (expr.op) {
    case 'baseValue':
      return w.el(name, { 'base-type': expr.baseType }, [formatScalar(expr.value)]);
    case 'variable':
    case 'correct':
    case 'mapResponse':
    case 'mapResponsePoint':
      return w.el(name, { identifier: expr.id });
    case 'null':
      return w.el(name);
    case 'stringMatch':
      return w.el(
        name,
        { 'case-sensitive': expr.caseSensitive },
        expr.args.map((a) => exprXml(w, a)),
      );
    case 'equal':
      return w.el(
        name,
        {
          'tolerance-mode': expr.toleranceMode,
          tolerance: expr.toleranceMode === 'exact' ? undefined : `${expr.tolerance[0]} ${expr.tolerance[1]}`,
          'include-lower-bound': expr.includeLowerBound,
          'include-upper-bound': expr.includeUpperBound,
        },
        expr.args.map((a) => exprXml(w, a)),
      );
    default:
      return w.el(
        name,
        {},
        expr.args.map((a) => exprXml(w, a)),
      );
  }
}

function rulesXml(w: Writer, rules: readonly Rule[]): Element[] {
  return rules.map((rule) => {
    if (rule.type === 'exit') return w.el('qti-exit-response');
    if (rule.type === 'set') return w.el('qti-set-outcome-value', { identifier: rule.id }, [exprXml(w, rule.expr)]);
    return w.el(
      'qti-response-condition',
      {},
      rule.branches.map((b, i) => {
        const name = b.when === null ? 'qti-response-else' : i === 0 ? 'qti-response-if' : 'qti-response-else-if';
        return w.el(name, {}, [...(b.when ? [exprXml(w, b.when)] : []), ...rulesXml(w, b.then)]);
      }),
    );
  });
}

function declarationXml(w: Writer, d: ResponseDeclaration): Element {
  const children: Element[] = [];
  if (d.correct?.length)
    children.push(
      w.el(
        'qti-correct-response',
        {},
        d.correct.map((v) => w.el('qti-value', {}, [formatScalar(v)])),
      ),
    );
  if (d.mapping) {
    children.push(
      w.el(
        'qti-mapping',
        { 'default-value': d.mapping.defaultValue, 'lower-bound': d.mapping.lowerBound, 'upper-bound': d.mapping.upperBound },
        d.mapping.entries.map((e) => w.el('qti-map-entry', { 'map-key': formatScalar(e.key), 'mapped-value': e.value, 'case-sensitive': e.caseSensitive })),
      ),
    );
  }
  return w.el('qti-response-declaration', { identifier: d.identifier, cardinality: d.cardinality, 'base-type': d.baseType }, children);
}

interface HtmlContext {
  mediaPath: (key: string) => string;
  gap?: (id: string) => Element;
}

/** Item HTML (sanitized) as QTI body content: XHTML elements in the QTI namespace, MathML in its own. */
function htmlNodes(w: Writer, html: string, ctx: HtmlContext): Node[] {
  const source = new DOMParser({ onError: () => undefined }).parseFromString(`<div>${sanitizeItemHtml(html)}</div>`, 'text/html');
  const root = source.getElementsByTagName('div')[0];
  const mathTags = new Set(MATHML_TAGS);
  const convert = (node: Node, inMath: boolean): Node | null => {
    if (node.nodeType === 3) return w.doc.createTextNode(node.nodeValue ?? '');
    if (node.nodeType !== 1) return null;
    const el = node as Element;
    const name = (el.localName ?? el.nodeName).toLowerCase();
    if (name === 'span' && el.hasAttribute('data-gap') && ctx.gap) return ctx.gap(el.getAttribute('data-gap') ?? '');
    const math = inMath || name === 'math';
    const out = math && mathTags.has(name) ? w.doc.createElementNS(MATHML_NS, name) : w.doc.createElementNS(QTI3_NS, name);
    for (let i = 0; i < el.attributes.length; i += 1) {
      const a = el.attributes[i];
      let value = a.value;
      if ((a.name === 'src' || a.name === 'data') && value.startsWith('media:')) value = ctx.mediaPath(value.slice('media:'.length));
      if (a.name === 'lang') out.setAttributeNS(XML_NS, 'xml:lang', value);
      else out.setAttribute(a.name, value);
    }
    for (let c = el.firstChild; c; c = c.nextSibling) {
      const converted = convert(c, math);
      if (converted) out.appendChild(converted);
    }
    return out;
  };
  const out: Node[] = [];
  for (let c = root.firstChild; c; c = c.nextSibling) {
    const converted = convert(c, false);
    if (converted) out.push(converted);
  }
  return out;
}

function choiceElements(w: Writer, name: string, options: { id: string; keepLast: boolean }[], texts: Record<string, string>, ctx: HtmlContext) {
  return options.map((o) => w.el(name, { identifier: o.id, fixed: o.keepLast ? true : undefined }, htmlNodes(w, texts[o.id] ?? '', ctx)));
}

/** One language variant of an item as a QTI 3.0 assessment item document. */
export function itemToQtiXml(item: ExportItem, lang: string, mediaPath: (key: string) => string): string {
  const content = item.content;
  const variant = content.variants[lang];
  if (!variant) throw new QtiExportError(`item ${item.id} has no ${lang} variant`);
  const w = new Writer('qti-assessment-item');
  const root = w.doc.documentElement!;
  root.setAttributeNS('http://www.w3.org/2000/xmlns/', 'xmlns:xsi', XSI_NS);
  root.setAttributeNS(XSI_NS, 'xsi:schemaLocation', SCHEMA_LOCATION);
  root.setAttribute('identifier', qtiIdentifier(item.id));
  root.setAttribute('title', item.title);
  root.setAttribute('adaptive', 'false');
  root.setAttribute('time-dependent', 'false');
  root.setAttributeNS(XML_NS, 'xml:lang', lang);

  const compiled = compileItem(content);
  for (const d of compiled.declarations) root.appendChild(declarationXml(w, d));
  const outcome = (id: string, value: number) =>
    w.el('qti-outcome-declaration', { identifier: id, cardinality: 'single', 'base-type': 'float' }, [
      w.el('qti-default-value', {}, [w.el('qti-value', {}, [String(value)])]),
    ]);
  root.appendChild(outcome('SCORE', 0));
  root.appendChild(outcome('MAXSCORE', content.marking.correct));

  const ctx: HtmlContext = { mediaPath };
  const textEntry = (id: string) => {
    const expectedLength =
      content.kind === 'fillInBlanks'
        ? content.gaps.find((g) => g.id === id)?.expectedLength
        : content.kind === 'shortText'
          ? content.expectedLength
          : undefined;
    return w.el('qti-text-entry-interaction', { 'response-identifier': id, 'expected-length': expectedLength });
  };
  const body = w.el('qti-item-body');
  const texts = variant.choices ?? {};
  switch (content.kind) {
    case 'singleChoice':
    case 'multipleChoice':
    case 'trueFalse': {
      appendAll(body, htmlNodes(w, variant.stem, ctx));
      const single = content.kind !== 'multipleChoice';
      const labels = TRUE_FALSE[lang.split('-')[0]] ?? TRUE_FALSE.en;
      const choices =
        content.kind === 'trueFalse'
          ? [w.el('qti-simple-choice', { identifier: 'true' }, [labels[0]]), w.el('qti-simple-choice', { identifier: 'false' }, [labels[1]])]
          : choiceElements(w, 'qti-simple-choice', content.options, texts, ctx);
      body.appendChild(
        w.el(
          'qti-choice-interaction',
          {
            'response-identifier': RESPONSE,
            shuffle: content.kind === 'trueFalse' ? false : content.shuffle,
            'max-choices': single ? 1 : content.maxChoices,
            'min-choices': content.kind === 'multipleChoice' ? content.minChoices : undefined,
          },
          choices,
        ),
      );
      break;
    }
    case 'ordering':
      appendAll(body, htmlNodes(w, variant.stem, ctx));
      body.appendChild(
        w.el(
          'qti-order-interaction',
          { 'response-identifier': RESPONSE, shuffle: content.shuffle },
          choiceElements(w, 'qti-simple-choice', content.options, texts, ctx),
        ),
      );
      break;
    case 'matching': {
      appendAll(body, htmlNodes(w, variant.stem, ctx));
      const uses = (id: string) => content.pairs.filter((p) => p.right === id).length;
      const set = (options: { id: string; keepLast: boolean }[], matchMax: (id: string) => number) =>
        w.el(
          'qti-simple-match-set',
          {},
          options.map((o) =>
            w.el(
              'qti-simple-associable-choice',
              { identifier: o.id, 'match-max': matchMax(o.id), fixed: o.keepLast ? true : undefined },
              htmlNodes(w, texts[o.id] ?? '', ctx),
            ),
          ),
        );
      body.appendChild(
        w.el('qti-match-interaction', { 'response-identifier': RESPONSE, shuffle: content.shuffle, 'max-associations': content.left.length }, [
          set(content.left, () => 1),
          set(content.right, (id) => Math.max(1, uses(id))),
        ]),
      );
      break;
    }
    case 'numeric':
    case 'shortText':
    case 'fillInBlanks': {
      const nodes = htmlNodes(w, variant.stem, { ...ctx, gap: textEntry });
      appendAll(body, nodes);
      if (content.kind !== 'fillInBlanks' && !nodes.some((n) => n.nodeType === 1 && hasTextEntry(n as Element))) {
        body.appendChild(w.el('p', {}, [textEntry(RESPONSE)]));
      }
      break;
    }
    case 'essay':
      if (variant.rubric)
        body.appendChild(w.el('qti-rubric-block', { view: 'scorer', use: 'scoring' }, [w.el('qti-content-body', {}, htmlNodes(w, variant.rubric, ctx))]));
      appendAll(body, htmlNodes(w, variant.stem, ctx));
      body.appendChild(w.el('qti-extended-text-interaction', { 'response-identifier': RESPONSE, 'data-word-limit': content.wordLimit ?? undefined }));
      break;
  }
  root.appendChild(body);

  const processing = compiled.processing;
  if (processing.template) {
    root.appendChild(w.el('qti-response-processing', { template: `${TEMPLATE_BASE}${processing.template}.xml` }));
  } else if (processing.rules.length) {
    root.appendChild(w.el('qti-response-processing', {}, rulesXml(w, processing.rules)));
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(w.doc)}\n`;
}

function hasTextEntry(el: Element): boolean {
  if ((el.localName ?? el.nodeName) === 'qti-text-entry-interaction') return true;
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1 && hasTextEntry(c as Element)) return true;
  return false;
}

function manifestXml(resources: { identifier: string; href: string; files: string[] }[]): string {
  const w = new Writer('manifest', CP_NS);
  const root = w.doc.documentElement!;
  root.setAttribute('identifier', 'exam-portal-qti-export');
  appendAll(root, [
    w.el('metadata', {}, [w.el('schema', {}, ['QTI Package']), w.el('schemaversion', {}, ['3.0.0'])]),
    w.el('organizations'),
    w.el(
      'resources',
      {},
      resources.map((r) =>
        w.el(
          'resource',
          { identifier: r.identifier, type: 'imsqti_item_xmlv3p0', href: r.href },
          r.files.map((f) => w.el('file', { href: f })),
        ),
      ),
    ),
  ]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(w.doc)}\n`;
}

function appendAll(parent: Element, nodes: readonly Node[]) {
  for (const node of nodes) parent.appendChild(node);
}

/**
 * A QTI 3.0 content package of the items (every language variant of each). Deterministic: the
 * same items and media give the same bytes.
 */
export async function exportQtiPackage(items: readonly ExportItem[], resolveMedia: MediaResolver): Promise<Buffer> {
  const files: { path: string; data: Buffer }[] = [];
  const resources: { identifier: string; href: string; files: string[] }[] = [];
  const identifiers = new Set<string>();
  for (const item of items) {
    const identifier = qtiIdentifier(item.id);
    if (identifiers.has(identifier)) throw new QtiExportError(`two items export as ${identifier}`);
    identifiers.add(identifier);
    const dir = `items/${identifier}`;
    const mediaPaths = new Map<string, string>();
    const used = new Set<string>();
    for (const ref of item.content.media) {
      const data = await resolveMedia(ref, item);
      if (!data) throw new QtiExportError(`the file ${ref.fileName} of item ${item.id} cannot be read`);
      let name = mediaFileName(ref);
      for (let n = 2; used.has(name); n += 1) name = `${n}-${mediaFileName(ref)}`;
      used.add(name);
      mediaPaths.set(ref.key, `media/${name}`);
      files.push({ path: `${dir}/media/${name}`, data });
    }
    const mediaPath = (key: string) => mediaPaths.get(key) ?? `media/missing-${key.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
    for (const lang of Object.keys(item.content.variants).sort()) {
      const href = `${dir}/${lang}.xml`;
      files.push({ path: href, data: Buffer.from(itemToQtiXml(item, lang, mediaPath), 'utf8') });
      resources.push({ identifier: `${identifier}-${lang}`, href, files: [href, ...[...mediaPaths.values()].map((p) => `${dir}/${p}`)] });
    }
  }
  files.unshift({ path: 'imsmanifest.xml', data: Buffer.from(manifestXml(resources), 'utf8') });
  return writeZip(files);
}
