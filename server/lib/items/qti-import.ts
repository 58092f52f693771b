import path from 'node:path/posix';
import type { Element } from '@xmldom/xmldom';
import { normalizeText, RESPONSE } from '#machines/items/compile-item.ts';
import type { Choice, ItemContent, ItemResponse, Marking, MediaRef, PartialCredit } from '#machines/items/item-schema.ts';
import { checkItemContent } from '#machines/items/item-validate.ts';
import {
  compileProcessing,
  type CompiledProcessing,
  type Expr,
  type Processing,
  type QValue,
  type ResponseDeclaration,
  type Rule,
} from '#machines/items/qti-engine.ts';
import { score, toQtiResponses } from '#machines/items/score.ts';
import { detectFileType } from '#server/lib/file-types.ts';
import { aloneInParent, contentHtml, isInteraction, promptHtml, type BodyContext } from './qti-body.ts';
import { readDeclaration, readProcessing, UnsupportedQti } from './qti-read.ts';
import { attr, childNamed, childrenNamed, descendants, elementChildren, parseXml, qtiName, QtiInputError, XML_NS } from './qti-xml.ts';
import { readZip, safeEntryPath, ZIP_LIMITS, type ZipLimits } from './qti-zip.ts';

/**
 * QTI 3.0 and 2.1/2.2 import (docs/decisions/0121): single `assessmentItem` files or IMS content
 * packages. Each item is mapped to one of our nine kinds or reported with its reasons; the
 * marking is read from the item's own response processing and then verified: our scorer must
 * give the same score as the item's processing (run by the same QTI engine) on every response
 * of the verification set, or the item is reported instead of being imported with a guess.
 */
export interface ImportedItem {
  identifier: string;
  title: string;
  /** Package paths of the files it came from (one per language variant). */
  sources: string[];
  qtiVersion: '3.0' | '2.x';
  content: ItemContent;
  warnings: string[];
}
export interface UnmappedItem {
  identifier: string | null;
  title: string | null;
  source: string;
  reasons: string[];
}
/** A media file of the package that imported items use: a category-file candidate. */
export interface CandidateFile {
  key: string;
  path: string;
  fileName: string;
  mimeType: string;
  /** false when the type was not recognised by content (magic bytes); the item bank decides. */
  typeCheckedByContent: boolean;
  data: Buffer;
  usedBy: string[];
}
export interface QtiImportResult {
  items: ImportedItem[];
  unmapped: UnmappedItem[];
  files: CandidateFile[];
}
export interface ImportOptions {
  /** The language of items that state none (xml:lang). */
  defaultLanguage?: string;
  /** Name of a single uploaded XML file. */
  fileName?: string;
  limits?: Partial<ZipLimits>;
}

const ITEM_TYPE = /^imsqti_item_xmlv(3p0|2p[0-2])/;
const TEXT_KINDS = new Set(['float', 'integer']);
const SENTINEL = 'zz-not-an-answer-\u2063';
const EPS = 1e-9;

class Unmappable extends Error {}

const isZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5) && (b[3] === 4 || b[3] === 6);

export async function importQti(input: Buffer, options: ImportOptions = {}): Promise<QtiImportResult> {
  const defaultLanguage = options.defaultLanguage ?? 'en';
  if (!isZip(input)) {
    const source = options.fileName ?? 'item.xml';
    const doc = parseXml(input, source);
    const drafts = [readItemFile(doc.documentElement!, source, new Map(), defaultLanguage)];
    return finish(drafts, new Map());
  }
  const files = await readZip(input, { ...ZIP_LIMITS, ...options.limits });
  const manifestBytes = files.get('imsmanifest.xml');
  if (!manifestBytes) throw new QtiInputError('not an IMS content package: imsmanifest.xml is missing');
  const manifest = parseXml(manifestBytes, 'imsmanifest.xml').documentElement!;
  const resources = descendants(manifest, (e) => (e.localName ?? e.nodeName) === 'resource');
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const resource of resources) {
    if (!ITEM_TYPE.test(resource.getAttribute('type') ?? '')) continue;
    const href =
      resource.getAttribute('href') ??
      elementChildren(resource)
        .find((f) => (f.localName ?? f.nodeName) === 'file')
        ?.getAttribute('href') ??
      '';
    const itemPath = safeEntryPath(safeDecode(href));
    if (!itemPath || seen.has(itemPath)) {
      if (!itemPath)
        drafts.push({
          unmapped: { identifier: resource.getAttribute('identifier'), title: null, source: href, reasons: [`unsafe path in the manifest: "${href}"`] },
        });
      continue;
    }
    seen.add(itemPath);
    const bytes = files.get(itemPath);
    if (!bytes) {
      drafts.push({
        unmapped: {
          identifier: resource.getAttribute('identifier'),
          title: null,
          source: itemPath,
          reasons: [`the manifest lists ${itemPath}, which is not in the package`],
        },
      });
      continue;
    }
    try {
      drafts.push(readItemFile(parseXml(bytes, itemPath).documentElement!, itemPath, files, defaultLanguage));
    } catch (error) {
      if (!(error instanceof QtiInputError)) throw error;
      drafts.push({ unmapped: { identifier: resource.getAttribute('identifier'), title: null, source: itemPath, reasons: [error.message] } });
    }
  }
  return finish(drafts, files);
}

function safeDecode(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

// ---------------------------------------------------------------------------------------------

interface Mapped {
  identifier: string;
  title: string;
  source: string;
  qtiVersion: '3.0' | '2.x';
  lang: string;
  content: ItemContent;
  media: Map<string, string>; // key → package path
  warnings: string[];
}
type Draft = { mapped: Mapped } | { unmapped: UnmappedItem };

function finish(drafts: Draft[], files: Map<string, Buffer>): QtiImportResult {
  const unmapped: UnmappedItem[] = [];
  const items: (ImportedItem & { media: Map<string, string>; langs: string[] })[] = [];
  for (const draft of drafts) {
    if ('unmapped' in draft) {
      unmapped.push(draft.unmapped);
      continue;
    }
    const m = draft.mapped;
    // Language variants of one item: the same identifier and the same structure, another xml:lang.
    const sibling = items.find((i) => i.identifier === m.identifier && !i.langs.includes(m.lang) && sameStructure(i.content, m.content));
    if (sibling) {
      sibling.content = { ...sibling.content, variants: { ...sibling.content.variants, ...m.content.variants } } as ItemContent;
      const known = new Set(sibling.content.media.map((r) => r.key));
      sibling.content.media.push(...m.content.media.filter((r) => !known.has(r.key)));
      for (const [k, v] of m.media) sibling.media.set(k, v);
      sibling.sources.push(m.source);
      sibling.langs.push(m.lang);
      sibling.warnings.push(...m.warnings);
      continue;
    }
    items.push({
      identifier: m.identifier,
      title: m.title,
      sources: [m.source],
      qtiVersion: m.qtiVersion,
      content: m.content,
      warnings: m.warnings,
      media: m.media,
      langs: [m.lang],
    });
  }
  const candidates = new Map<string, CandidateFile>();
  for (const item of items) {
    for (const [key, filePath] of item.media) {
      const data = files.get(filePath);
      if (!data) continue;
      const existing = candidates.get(key);
      if (existing) {
        if (!existing.usedBy.includes(item.identifier)) existing.usedBy.push(item.identifier);
        continue;
      }
      const ref = item.content.media.find((r) => r.key === key)!;
      const detected = detectFileType(data);
      const typeCheckedByContent = detected !== undefined && detected.kind !== 'text';
      candidates.set(key, { key, path: filePath, fileName: ref.fileName, mimeType: ref.mimeType, typeCheckedByContent, data, usedBy: [item.identifier] });
    }
  }
  return {
    items: items.map(({ media: _media, langs: _langs, ...rest }) => rest),
    unmapped,
    files: [...candidates.values()],
  };
}

function sameStructure(a: ItemContent, b: ItemContent): boolean {
  const strip = (c: ItemContent) => JSON.stringify({ ...c, variants: null, media: null });
  return strip(a) === strip(b);
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  pdf: 'application/pdf',
};

function readItemFile(root: Element, source: string, files: Map<string, Buffer>, defaultLanguage: string): Draft {
  const name = qtiName(root);
  const identifier = attr(root, 'identifier');
  const title = attr(root, 'title');
  if (name !== 'qti-assessment-item') {
    return { unmapped: { identifier, title, source, reasons: [`${root.localName ?? root.nodeName} is not an assessment item`] } };
  }
  const qtiVersion = (root.localName ?? root.nodeName) === 'qti-assessment-item' ? '3.0' : '2.x';
  const warnings: string[] = [];
  const media = new Map<string, string>();
  const refs: MediaRef[] = [];
  const dir = path.dirname(source);
  const ctx: BodyContext = {
    media: (src) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('//')) return null;
      const filePath = safeEntryPath(path.normalize(path.join(dir === '.' ? '' : dir, safeDecode(src.split(/[?#]/)[0]))));
      if (!filePath || !files.has(filePath)) return null;
      const key = filePath.replace(/[^A-Za-z0-9_./-]/g, '_');
      if (!media.has(key)) {
        media.set(key, filePath);
        const detected = detectFileType(files.get(filePath)!);
        const ext = filePath.split('.').pop()?.toLowerCase() ?? '';
        const mimeType = detected && detected.kind !== 'text' ? detected.mime : (MIME_BY_EXTENSION[ext] ?? 'application/octet-stream');
        refs.push({ key, categoryFileId: null, fileName: path.basename(filePath), mimeType });
      }
      return key;
    },
    interaction: () => null,
    warn: (message) => {
      if (!warnings.includes(message)) warnings.push(message);
    },
  };
  try {
    const content = mapItem(root, ctx, refs);
    const lang = (root.getAttributeNS(XML_NS, 'lang') || root.getAttribute('xml:lang') || defaultLanguage).split('-')[0].toLowerCase();
    const variant = content.variants.__;
    content.variants = { [lang]: variant };
    const issues = checkItemContent(content);
    if (issues.length) throw new Unmappable(`the mapped item is not valid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
    return {
      mapped: {
        identifier: identifier ?? path.basename(source, '.xml'),
        title: title ?? identifier ?? source,
        source,
        qtiVersion,
        lang,
        content,
        media,
        warnings,
      },
    };
  } catch (error) {
    if (error instanceof Unmappable || error instanceof UnsupportedQti) return { unmapped: { identifier, title, source, reasons: [error.message] } };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Mapping one item

const SUPPORTED_INTERACTIONS = new Set([
  'qti-choice-interaction',
  'qti-order-interaction',
  'qti-match-interaction',
  'qti-text-entry-interaction',
  'qti-extended-text-interaction',
]);

interface Source {
  decls: Map<string, ResponseDeclaration>;
  processing: Processing | null;
  run: CompiledProcessing | null;
}

/** Builds the item content with a placeholder variant key "__" (the caller names the language). */
function mapItem(root: Element, ctx: BodyContext, media: MediaRef[]): ItemContent {
  const reasons: string[] = [];
  if (attr(root, 'adaptive') === 'true') reasons.push('adaptive items (several attempts with changing scores) are not supported');
  if (childrenNamed(root, 'qti-template-declaration').length || childNamed(root, 'qti-template-processing')) {
    reasons.push('template variables (generated item variants) are not supported');
  }
  const body = childNamed(root, 'qti-item-body');
  if (!body) reasons.push('the item has no body');
  if (childrenNamed(root, 'qti-assessment-stimulus-ref').length) reasons.push('shared stimulus references are not supported');
  const interactions = body ? descendants(body, isInteraction) : [];
  const unsupported = [...new Set(interactions.map(qtiName).filter((n) => !SUPPORTED_INTERACTIONS.has(n)))];
  for (const n of unsupported) reasons.push(`${n} has no matching item kind`);
  if (body && interactions.length === 0) reasons.push('the item has no interaction');
  const textEntries = interactions.filter((i) => qtiName(i) === 'qti-text-entry-interaction');
  if (interactions.length > 1 && textEntries.length !== interactions.length) {
    reasons.push(`${interactions.length} interactions in one item (composite items have no matching kind)`);
  }
  if (reasons.length) throw new Unmappable(reasons.join('; '));

  const decls = new Map<string, ResponseDeclaration>();
  for (const el of childrenNamed(root, 'qti-response-declaration')) {
    const decl = readDeclaration(el);
    decls.set(decl.identifier, decl);
  }
  const processing = readProcessing(childNamed(root, 'qti-response-processing'));
  const run = processing ? compileProcessing([...decls.values()], processing) : null;
  const source: Source = { decls, processing, run };
  for (const i of interactions) {
    const id = attr(i, 'response-identifier') ?? '';
    if (!decls.has(id)) throw new Unmappable(`${qtiName(i)} answers ${id || 'nothing'}, which has no response declaration`);
  }
  const first = interactions[0];
  const kindName = qtiName(first);
  const outcomeMax = maxScoreOf(root);
  const base = { media };
  if (kindName === 'qti-extended-text-interaction') {
    const blank = run ? run({ [attr(first, 'response-identifier')!]: null }) : 0;
    return mapEssay(body!, first, ctx, base, outcomeMax, Math.min(0, blank));
  }
  if (kindName === 'qti-text-entry-interaction') return mapTextEntries(body!, textEntries, source, ctx, base);
  if (!run) throw new Unmappable('the item has no response processing, so it cannot be scored');
  const decl = decls.get(attr(first, 'response-identifier')!)!;
  const stem = (ctx2: BodyContext) => contentHtml(body!, { ...ctx2, interaction: (el) => (el === first ? promptHtml(el, ctx2) : null) });
  if (kindName === 'qti-choice-interaction') return mapChoice(first, decl, source, stem(ctx), ctx, base);
  if (kindName === 'qti-order-interaction') return mapOrder(first, decl, source, stem(ctx), ctx, base);
  return mapMatch(first, decl, source, stem(ctx), ctx, base);
}

function maxScoreOf(root: Element): number | null {
  for (const o of childrenNamed(root, 'qti-outcome-declaration')) {
    const id = attr(o, 'identifier');
    const normalMaximum = Number(attr(o, 'normal-maximum'));
    if (id === 'SCORE' && Number.isFinite(normalMaximum) && normalMaximum > 0) return normalMaximum;
    if (id === 'MAXSCORE') {
      const value = Number(childNamed(childNamed(o, 'qti-default-value') ?? o, 'qti-value')?.textContent ?? NaN);
      if (Number.isFinite(value) && value > 0) return value;
    }
  }
  return null;
}

function choicesOf(interaction: Element, name: string, ctx: BodyContext): { options: Choice[]; texts: Record<string, string> } {
  const elements = descendants(interaction, (e) => qtiName(e) === name);
  const options = elements.map((e) => ({ id: attr(e, 'identifier') ?? '', keepLast: attr(e, 'fixed') === 'true' }));
  // "fixed" keeps a choice in place; we keep such choices last, which is the same only at the end.
  const firstFixed = options.findIndex((o) => o.keepLast);
  if (firstFixed >= 0 && options.slice(firstFixed).some((o) => !o.keepLast)) {
    ctx.warn('a fixed choice that is not at the end will move with shuffling');
    const trailing = options.length - [...options].reverse().findIndex((o) => !o.keepLast);
    options.forEach((o, i) => (o.keepLast = i >= trailing));
  }
  const texts = Object.fromEntries(elements.map((e, i) => [options[i].id, contentHtml(e, ctx)]));
  return { options, texts };
}

const shuffleOf = (interaction: Element) => attr(interaction, 'shuffle') === 'true';

/** Scores a response of ours with the item's own processing. */
function sourceScore(source: Source, content: ItemContent, response: ItemResponse, sourceId: string): number {
  const converted = toQtiResponses(content, response);
  if (typeof converted === 'string') throw new Error(converted);
  const responses: Record<string, QValue> = {};
  for (const [id, value] of Object.entries(converted)) responses[id === RESPONSE ? sourceId : id] = value;
  for (const id of source.decls.keys()) if (!(id in responses)) responses[id] = null;
  return source.run!(responses);
}

/** Does our scorer agree with the item's processing on every response? Returns the first disagreement. */
function disagreement(source: Source, content: ItemContent, responses: Iterable<ItemResponse>, sourceId: string): string | null {
  for (const response of responses) {
    const theirs = sourceScore(source, content, response, sourceId);
    const ours = score(content, response).score ?? 0;
    if (Math.abs(theirs - ours) > EPS) return `for the response ${JSON.stringify(response)} the package gives ${theirs} and the mapped item ${ours}`;
  }
  return null;
}

/** The first candidate our scorer agrees on, or Unmappable naming why the last one failed. */
function firstVerified(source: Source, candidates: ItemContent[], responses: ItemResponse[], sourceId: string): ItemContent {
  let last = 'no marking rule fits';
  for (const candidate of candidates) {
    if (checkItemContent(withVariant(candidate)).length) continue;
    const problem = disagreement(source, candidate, responses, sourceId);
    if (!problem) return candidate;
    last = problem;
  }
  throw new Unmappable(`its scoring cannot be expressed with our marking rules: ${last}`);
}

/** checkItemContent needs a language key; candidates carry the placeholder "__". */
function withVariant(content: ItemContent): ItemContent {
  return { ...content, variants: { xx: content.variants.__ } } as ItemContent;
}

const marking = (correct: number, wrong: number, unanswered: number): Marking => ({ correct, wrong, unanswered });

// Our own rule shape (compile-item.ts markingRules): read the numbers back exactly.
interface OwnShape {
  u: number;
  c: number;
  w: number;
  partial: boolean;
  wrongCancels: boolean;
}
const baseNumber = (rules: Rule[]): number | null =>
  rules.length === 1 && rules[0].type === 'set' && rules[0].id === 'SCORE' && rules[0].expr.op === 'baseValue' && typeof rules[0].expr.value === 'number'
    ? rules[0].expr.value
    : null;

function ownShape(processing: Processing | null): OwnShape | null {
  if (!processing) return null;
  if (processing.template === 'match_correct') return { u: 0, c: 1, w: 0, partial: false, wrongCancels: false };
  if (processing.template) return null;
  const [rule] = processing.rules;
  if (processing.rules.length !== 1 || rule.type !== 'condition') return null;
  const b = rule.branches;
  if (b.length < 3 || b.length > 4 || b[b.length - 1].when !== null) return null;
  const u = baseNumber(b[0].then);
  const c = baseNumber(b[1].then);
  if (u === null || c === null) return null;
  const last = b[b.length - 1].then;
  const lastNumber = baseNumber(last);
  if (b.length === 3 && lastNumber !== null) return { u, c, w: lastNumber, partial: false, wrongCancels: false };
  const clamped = last.length === 1 && last[0].type === 'set' ? last[0].expr : null;
  if (!clamped || clamped.op !== 'max' || clamped.args[0].op !== 'baseValue') return null;
  const w = clamped.args[0].value as number;
  if (b.length === 4 && baseNumber(b[2].then) !== w) return null;
  return { u, c, w, partial: true, wrongCancels: b.length === 4 };
}

// --- choice ----------------------------------------------------------------------------------

function subsets<T>(all: T[], limit: number, seed: number): T[][] {
  if (all.length <= Math.log2(limit)) {
    const out: T[][] = [];
    for (let mask = 0; mask < 1 << all.length; mask += 1) out.push(all.filter((_, i) => mask & (1 << i)));
    return out;
  }
  const random = mulberry32(seed);
  return Array.from({ length: limit }, () => all.filter(() => random() < 0.5));
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Base = { media: MediaRef[] };

function mapChoice(interaction: Element, decl: ResponseDeclaration, source: Source, stem: string, ctx: BodyContext, base: Base): ItemContent {
  if (decl.baseType !== 'identifier') throw new Unmappable(`a choice interaction answering a ${decl.baseType} has no matching kind`);
  const { options, texts } = choicesOf(interaction, 'qti-simple-choice', ctx);
  const ids = options.map((o) => o.id);
  const sourceId = decl.identifier;
  const S = (content: ItemContent, response: ItemResponse) => sourceScore(source, content, response, sourceId);
  if (decl.cardinality === 'single') {
    const isTrueFalse = ids.length === 2 && ids.includes('true') && ids.includes('false');
    const probe: ItemContent = isTrueFalse
      ? { kind: 'trueFalse', variants: { __: { stem } }, marking: marking(1, 0, 0), ...base, correct: true }
      : {
          kind: 'singleChoice',
          variants: { __: { stem, choices: texts } },
          marking: marking(1, 0, 0),
          ...base,
          options,
          correct: ids[0],
          shuffle: shuffleOf(interaction),
        };
    const responses: ItemResponse[] = isTrueFalse ? [null, true, false] : [null, ...ids];
    const scores = responses.slice(1).map((r) => S(probe, r));
    const c = Math.max(...scores);
    if (!(c > 0)) throw new Unmappable('no choice earns marks');
    const winners = scores.filter((s) => s === c).length;
    if (winners !== 1) throw new Unmappable('several choices earn full marks; a single choice has one key');
    const key = responses[1 + scores.indexOf(c)];
    const w = Math.min(...scores);
    const m = marking(c, w, S(probe, null));
    const candidate: ItemContent = isTrueFalse
      ? { ...(probe as Extract<ItemContent, { kind: 'trueFalse' }>), marking: m, correct: key === true }
      : { ...(probe as Extract<ItemContent, { kind: 'singleChoice' }>), marking: m, correct: key as string };
    return firstVerified(source, [candidate], responses, sourceId);
  }
  const key = decl.correct?.map(String).filter((id) => ids.includes(id)) ?? [];
  const probe: Extract<ItemContent, { kind: 'multipleChoice' }> = {
    kind: 'multipleChoice',
    variants: { __: { stem, choices: texts } },
    marking: marking(1, 0, 0),
    ...base,
    options,
    correct: key.length ? key : ids.slice(0, 1),
    minChoices: Number(attr(interaction, 'min-choices') ?? 0) || 0,
    maxChoices: Number(attr(interaction, 'max-choices') ?? 0) || 0,
    shuffle: shuffleOf(interaction),
    partial: null,
  };
  if (!key.length) throw new Unmappable('a multiple-response choice without a declared correct response cannot be mapped');
  const responses: ItemResponse[] = [null, ...subsets(ids, 4096, 17)];
  const candidates = partsCandidates(probe, source, decl, key, ids, (r) => S(probe, r));
  return firstVerified(source, candidates, responses, sourceId);
}

/**
 * Marking candidates for kinds made of parts (options, pairs): our own rule shape read back, then
 * all-or-nothing, then per-part credit without and with "a wrong part cancels", each fitted
 * from the item's own scores of small responses.
 */
function partsCandidates<C extends Extract<ItemContent, { partial: PartialCredit | null }>>(
  probe: C,
  source: Source,
  decl: ResponseDeclaration,
  key: string[],
  all: string[],
  S: (response: ItemResponse) => number,
): C[] {
  const asResponse = (parts: string[]): ItemResponse => (probe.kind === 'matching' ? parts.map((p) => p.split(' ') as [string, string]) : parts);
  const u = S(null);
  const c = S(asResponse(key));
  if (!(c > 0)) throw new Unmappable('the correct response earns no marks');
  const wrongParts = all.filter((p) => !key.includes(p));
  const out: C[] = [];
  const shape = ownShape(source.processing);
  if (shape) {
    const perCorrect = decl.mapping?.entries.find((e) => e.key === key[0])?.value ?? 0;
    const perWrong = decl.mapping?.defaultValue ?? 0;
    out.push({
      ...probe,
      marking: marking(shape.c, shape.w, shape.u),
      partial: shape.partial ? { perCorrect, perWrong, wrongCancels: shape.wrongCancels } : null,
    });
  }
  const oneOff = key.length > 1 ? key.slice(1) : [...key, ...wrongParts.slice(0, 1)];
  out.push({ ...probe, marking: marking(c, Math.min(0, S(asResponse(oneOff))), u), partial: null });
  const perCorrect = key.length > 1 ? S(asResponse([key[0]])) : c;
  if (wrongParts.length) {
    const perWrong = S(asResponse([key[0], wrongParts[0]])) - perCorrect;
    const floor = Math.min(0, S(asResponse(wrongParts)));
    out.push({ ...probe, marking: marking(c, floor, u), partial: { perCorrect, perWrong: Math.min(0, perWrong), wrongCancels: false } });
    out.push({ ...probe, marking: marking(c, Math.min(0, S(asResponse([wrongParts[0]]))), u), partial: { perCorrect, perWrong: 0, wrongCancels: true } });
  } else {
    out.push({ ...probe, marking: marking(c, Math.min(0, u), u), partial: { perCorrect, perWrong: 0, wrongCancels: false } });
  }
  return out;
}

// --- order -----------------------------------------------------------------------------------

function permutations<T>(all: T[], limit: number, seed: number): T[][] {
  if (all.length <= 7) {
    const out: T[][] = [];
    const walk = (rest: T[], acc: T[]) => {
      if (rest.length === 0) out.push(acc);
      rest.forEach((x, i) => walk([...rest.slice(0, i), ...rest.slice(i + 1)], [...acc, x]));
    };
    walk(all, []);
    return out;
  }
  const random = mulberry32(seed);
  return Array.from({ length: limit }, () => {
    const copy = [...all];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  });
}

function mapOrder(interaction: Element, decl: ResponseDeclaration, source: Source, stem: string, ctx: BodyContext, base: Base): ItemContent {
  if (decl.baseType !== 'identifier' || decl.cardinality !== 'ordered') throw new Unmappable('an order interaction must answer an ordered list of identifiers');
  const { options, texts } = choicesOf(interaction, 'qti-simple-choice', ctx);
  const ids = options.map((o) => o.id);
  const key = decl.correct?.map(String) ?? [];
  if (key.length !== ids.length || key.some((id) => !ids.includes(id))) throw new Unmappable('the correct order must list every choice once');
  const probe: Extract<ItemContent, { kind: 'ordering' }> = {
    kind: 'ordering',
    variants: { __: { stem, choices: texts } },
    marking: marking(1, 0, 0),
    ...base,
    options,
    correctOrder: key,
    shuffle: shuffleOf(interaction),
  };
  const S = (r: ItemResponse) => sourceScore(source, probe, r, decl.identifier);
  const other = [...key.slice(1), key[0]];
  const candidate = { ...probe, marking: marking(S(key), Math.min(0, S(other)), S(null)) };
  if (!(candidate.marking.correct > 0)) throw new Unmappable('the correct order earns no marks');
  return firstVerified(source, [candidate], [null, ...permutations(ids, 5040, 23)], decl.identifier);
}

// --- match -----------------------------------------------------------------------------------

function mapMatch(interaction: Element, decl: ResponseDeclaration, source: Source, stem: string, ctx: BodyContext, base: Base): ItemContent {
  if (decl.baseType !== 'directedPair' || decl.cardinality === 'single') throw new Unmappable('a match interaction must answer directed pairs');
  const sets = childrenNamed(interaction, 'qti-simple-match-set');
  if (sets.length !== 2) throw new Unmappable('a match interaction needs two match sets');
  const left = choicesOf(sets[0], 'qti-simple-associable-choice', ctx);
  const right = choicesOf(sets[1], 'qti-simple-associable-choice', ctx);
  const all = left.options.flatMap((l) => right.options.map((r) => `${l.id} ${r.id}`));
  const key = (decl.correct ?? []).map(String).filter((p) => all.includes(p));
  if (!key.length) throw new Unmappable('a match interaction without a declared correct response cannot be mapped');
  const probe: Extract<ItemContent, { kind: 'matching' }> = {
    kind: 'matching',
    variants: { __: { stem, choices: { ...left.texts, ...right.texts } } },
    marking: marking(1, 0, 0),
    ...base,
    left: left.options,
    right: right.options,
    pairs: key.map((p) => {
      const [l, r] = p.split(' ');
      return { left: l, right: r };
    }),
    shuffle: shuffleOf(interaction),
    partial: null,
  };
  const S = (r: ItemResponse) => sourceScore(source, probe, r, decl.identifier);
  // Verification set: each left member matched to at most one right member.
  const choices = [null, ...right.options.map((o) => o.id)];
  const total = choices.length ** left.options.length;
  const random = mulberry32(31);
  const responses: ItemResponse[] = [null];
  const count = Math.min(total, 4096);
  for (let n = 0; n < count; n += 1) {
    const pairs: [string, string][] = [];
    let index = total <= 4096 ? n : Math.floor(random() * total);
    for (const l of left.options) {
      const r = choices[index % choices.length];
      index = Math.floor(index / choices.length);
      if (r) pairs.push([l.id, r]);
    }
    responses.push(pairs);
  }
  responses.push(key.map((p) => p.split(' ') as [string, string]));
  return firstVerified(source, partsCandidates(probe, source, decl, key, all, S), responses, decl.identifier);
}

// --- text entry (numeric, short text, fill in the blanks) ------------------------------------

function literalsFor(source: Source, id: string): { text: string; caseSensitive: boolean }[] {
  const out: { text: string; caseSensitive: boolean }[] = [];
  const add = (text: string, caseSensitive: boolean) => {
    const t = normalizeText(text);
    if (t && !out.some((o) => o.text === t && o.caseSensitive === caseSensitive)) out.push({ text: t, caseSensitive });
  };
  const decl = source.decls.get(id)!;
  for (const e of decl.mapping?.entries ?? []) if (typeof e.key === 'string') add(e.key, e.caseSensitive);
  const walk = (expr: Expr) => {
    if (expr.op === 'stringMatch' && expr.args.some((a) => a.op === 'variable' && a.id === id)) {
      for (const a of expr.args) if (a.op === 'baseValue' && typeof a.value === 'string') add(a.value, expr.caseSensitive);
    }
    if ('args' in expr) expr.args.forEach(walk);
  };
  const walkRules = (rules: Rule[]) =>
    rules.forEach((r) =>
      r.type === 'set' ? walk(r.expr) : r.type === 'condition' ? r.branches.forEach((b) => (b.when && walk(b.when), walkRules(b.then))) : undefined,
    );
  if (source.processing && !source.processing.template) walkRules(source.processing.rules);
  for (const v of decl.correct ?? []) if (typeof v === 'string' && !out.some((o) => o.text === normalizeText(v))) add(v, true);
  return out;
}

const variantsOfCase = (text: string) => [
  ...new Set([text, text.toUpperCase(), text.toLowerCase(), text.charAt(0).toUpperCase() + text.slice(1).toLowerCase()]),
];

function mapTextEntries(body: Element, entries: Element[], source: Source, ctx: BodyContext, base: Base): ItemContent {
  if (!source.run) throw new Unmappable('the item has no response processing, so it cannot be scored');
  const ids = entries.map((e) => attr(e, 'response-identifier')!);
  const decls = ids.map((id) => source.decls.get(id)!);
  if (decls.some((d) => d.cardinality !== 'single')) throw new Unmappable('a text entry answering a list has no matching kind');
  const numeric = decls.some((d) => TEXT_KINDS.has(d.baseType));
  if (entries.length > 1 && numeric) throw new Unmappable('numeric gaps in a fill-in-the-blanks item have no matching kind');
  if (decls.some((d) => d.baseType !== 'string' && !TEXT_KINDS.has(d.baseType)))
    throw new Unmappable(`a text entry answering a ${decls[0].baseType} has no matching kind`);
  const single = entries.length === 1 && (numeric || ids[0] === RESPONSE);
  const stem = contentHtml(body, {
    ...ctx,
    interaction: (el) => {
      const i = entries.indexOf(el);
      if (i < 0) return null;
      if (single && aloneInParent(el)) return '';
      return `<span data-gap="${single ? RESPONSE : ids[i]}"></span>`;
    },
  })
    .replace(/<(p|div)>\s*<\/\1>/g, '')
    .trim();
  if (numeric) return mapNumeric(decls[0], source, stem, base);
  if (single) return mapShortText(decls[0], source, stem, base, Number(attr(entries[0], 'expected-length')) || 20);
  return mapGaps(entries, ids, source, stem, base);
}

function mapNumeric(decl: ResponseDeclaration, source: Source, stem: string, base: Base): ItemContent {
  const answer = typeof decl.correct?.[0] === 'number' ? (decl.correct[0] as number) : null;
  if (answer === null) throw new Unmappable('a numeric entry without a declared correct value cannot be mapped');
  let tolerance = { mode: 'absolute' as 'absolute' | 'relative', value: 0 };
  const walk = (expr: Expr) => {
    if (expr.op === 'equal' && expr.toleranceMode !== 'exact') {
      if (expr.tolerance[0] !== expr.tolerance[1]) throw new Unmappable('an asymmetric tolerance has no matching rule');
      tolerance = { mode: expr.toleranceMode, value: expr.tolerance[0] };
    }
    if ('args' in expr) expr.args.forEach(walk);
  };
  const walkRules = (rules: Rule[]) =>
    rules.forEach((r) =>
      r.type === 'set' ? walk(r.expr) : r.type === 'condition' ? r.branches.forEach((b) => (b.when && walk(b.when), walkRules(b.then))) : undefined,
    );
  if (source.processing && !source.processing.template) walkRules(source.processing.rules);
  const probe: Extract<ItemContent, { kind: 'numeric' }> = {
    kind: 'numeric',
    variants: { __: { stem } },
    marking: marking(1, 0, 0),
    ...base,
    answer,
    tolerance,
  };
  const S = (r: ItemResponse) => sourceScore(source, probe, r, decl.identifier);
  const far = answer + 1e6 + 12345.678;
  const candidate = { ...probe, marking: marking(S(answer), Math.min(0, S(far)), S(null)) };
  if (!(candidate.marking.correct > 0)) throw new Unmappable('the correct value earns no marks');
  const t = tolerance.mode === 'absolute' ? tolerance.value : (Math.abs(answer) * tolerance.value) / 100;
  const probes: ItemResponse[] = [null, '', 'abc', answer, String(answer), far, 0, -answer, answer * 10];
  for (const d of [t, t * 0.999, t * 1.001 + 1e-9, Math.abs(answer) * 1e-6, Math.abs(answer) * 0.01, Math.abs(answer) * 0.05, 0.5, 1])
    probes.push(answer + d, answer - d);
  return firstVerified(source, [candidate], probes, decl.identifier);
}

function mapShortText(decl: ResponseDeclaration, source: Source, stem: string, base: Base, expectedLength: number): ItemContent {
  const literals = literalsFor(source, decl.identifier);
  if (!literals.length) throw new Unmappable('a text entry without accepted answers cannot be mapped');
  const probe: Extract<ItemContent, { kind: 'shortText' }> = {
    kind: 'shortText',
    variants: { __: { stem } },
    marking: marking(1, 0, 0),
    ...base,
    answers: [{ text: literals[0].text, caseSensitive: literals[0].caseSensitive, credit: 1 }],
    expectedLength: Math.min(500, expectedLength),
  };
  const S = (r: ItemResponse) => sourceScore(source, probe, r, decl.identifier);
  const w = S(SENTINEL);
  const scored = literals.map((l) => ({ ...l, s: S(l.text) })).filter((l) => l.s > w);
  const c = Math.max(...scored.map((l) => l.s));
  if (!scored.length || !(c > 0)) throw new Unmappable('no accepted answer earns marks');
  const candidate = {
    ...probe,
    marking: marking(c, Math.min(0, w), S(null)),
    answers: scored.map((l) => ({ text: l.text, caseSensitive: l.caseSensitive, credit: l.s / c })),
  };
  const probes: ItemResponse[] = [null, '', SENTINEL, ...literals.flatMap((l) => variantsOfCase(l.text))];
  return firstVerified(source, [candidate], probes, decl.identifier);
}

function mapGaps(entries: Element[], ids: string[], source: Source, stem: string, base: Base): ItemContent {
  const gaps = ids.map((id, i) => {
    const answers = literalsFor(source, id).map(({ text, caseSensitive }) => ({ text, caseSensitive }));
    if (!answers.length) throw new Unmappable(`gap ${id} has no accepted answers`);
    return { id, answers, expectedLength: Math.min(500, Number(attr(entries[i], 'expected-length')) || 20) };
  });
  const probe: Extract<ItemContent, { kind: 'fillInBlanks' }> = {
    kind: 'fillInBlanks',
    variants: { __: { stem } },
    marking: marking(1, 0, 0),
    ...base,
    gaps,
    partial: null,
  };
  const S = (r: ItemResponse) => sourceScore(source, probe, r, RESPONSE);
  const fill = (value: (gap: (typeof gaps)[number], i: number) => string | null) => Object.fromEntries(gaps.map((g, i) => [g.id, value(g, i)]));
  const right = fill((g) => g.answers[0].text);
  const u = S(null);
  const c = S(right);
  if (!(c > 0)) throw new Unmappable('the correct answers earn no marks');
  const candidates: Extract<ItemContent, { kind: 'fillInBlanks' }>[] = [];
  const shape = ownShape(source.processing);
  if (shape) {
    const mapping = source.decls.get(ids[0])?.mapping;
    candidates.push({
      ...probe,
      marking: marking(shape.c, shape.w, shape.u),
      partial: shape.partial ? { perCorrect: mapping?.entries[0]?.value ?? 0, perWrong: mapping?.defaultValue ?? 0, wrongCancels: shape.wrongCancels } : null,
    });
  }
  const allWrong = S(fill(() => SENTINEL));
  candidates.push({ ...probe, marking: marking(c, Math.min(0, allWrong), u), partial: null });
  const perCorrect = gaps.length > 1 ? S(fill((g, i) => (i === 0 ? g.answers[0].text : null))) : c;
  const perWrong = Math.min(0, S(fill((_, i) => (i === 0 ? SENTINEL : null))));
  candidates.push({ ...probe, marking: marking(c, Math.min(0, allWrong), u), partial: { perCorrect, perWrong, wrongCancels: false } });
  candidates.push({ ...probe, marking: marking(c, perWrong, u), partial: { perCorrect, perWrong: 0, wrongCancels: true } });
  const probes: ItemResponse[] = [null, right, fill(() => SENTINEL)];
  gaps.forEach((g, i) => {
    for (const value of [null, SENTINEL, ...g.answers.flatMap((a) => variantsOfCase(a.text))]) {
      probes.push(
        { ...right, [g.id]: value },
        fill((_, j) => (j === i ? value : null)),
        fill((_, j) => (j === i ? value : SENTINEL)),
      );
    }
  });
  return firstVerified(source, candidates, probes, RESPONSE);
}

// --- essay -----------------------------------------------------------------------------------

function mapEssay(body: Element, interaction: Element, ctx: BodyContext, base: Base, max: number | null, unanswered: number): ItemContent {
  const rubricBlock = descendants(body, (e) => qtiName(e) === 'qti-rubric-block' && (attr(e, 'view') ?? '').split(/\s+/).includes('scorer'))[0];
  const rubricSource = rubricBlock ? (childNamed(rubricBlock, 'qti-content-body') ?? rubricBlock) : null;
  const rubric = rubricSource ? contentHtml(rubricSource, ctx) : null;
  const stem = contentHtml(body, {
    ...ctx,
    warn: (m) => (m.startsWith('qti-rubric-block') && rubricBlock ? undefined : ctx.warn(m)),
    interaction: (el) => (el === interaction ? promptHtml(el, ctx) : null),
  });
  const limit = Number(attr(interaction, 'data-word-limit'));
  return {
    kind: 'essay',
    variants: { __: { stem, rubric: rubric || null } },
    marking: marking(max ?? 1, 0, unanswered),
    ...base,
    wordLimit: Number.isInteger(limit) && limit > 0 ? limit : null,
  };
}
