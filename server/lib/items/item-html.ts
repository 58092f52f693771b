import sanitizeHtml from 'sanitize-html';

/**
 * The allow list of item HTML (stems, options, rubrics), applied by the server whenever item
 * content is stored or imported; the client sanitizes again with DOMPurify when it renders
 * (docs/decisions/0120). Media may only be referenced as `media:<key>` (a category file of the
 * item); no other URL, no script, no event handler, no style survives.
 */
const textTags = ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'sub', 'sup', 'small', 'span', 'div', 'blockquote', 'pre', 'code', 'hr'];
const listTags = ['ul', 'ol', 'li', 'dl', 'dt', 'dd'];
const tableTags = ['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'];
const mediaTags = ['img', 'figure', 'figcaption', 'audio', 'video', 'source'];
export const MATHML_TAGS = [
  'math',
  'mrow',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
  'mfenced',
  'semantics',
  'annotation',
];

export const ITEM_HTML_TAGS: readonly string[] = [...textTags, ...listTags, ...tableTags, ...mediaTags, ...MATHML_TAGS, 'h3', 'h4', 'h5', 'h6'];

const mathAttributes = [
  'mathvariant',
  'display',
  'displaystyle',
  'scriptlevel',
  'fence',
  'separator',
  'stretchy',
  'lspace',
  'rspace',
  'linethickness',
  'notation',
  'encoding',
  'open',
  'close',
  'separators',
  'columnalign',
  'rowalign',
];

const options: sanitizeHtml.IOptions = {
  allowedTags: [...ITEM_HTML_TAGS],
  allowedAttributes: {
    '*': ['lang', 'dir'],
    img: ['src', 'alt', 'width', 'height'],
    audio: ['src', 'controls'],
    video: ['src', 'controls', 'width', 'height'],
    source: ['src', 'type'],
    span: ['data-gap', 'data-latex'],
    ol: ['start', 'type'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    col: ['span'],
    ...Object.fromEntries(MATHML_TAGS.map((tag) => [tag, mathAttributes])),
  },
  allowedSchemes: ['media'],
  allowedSchemesAppliedToAttributes: ['src', 'href', 'cite'],
  allowProtocolRelative: false,
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true },
  // sanitize-html lets relative URLs through; an item may only point at its own media.
  transformTags: {
    ...Object.fromEntries(
      ['img', 'audio', 'video', 'source'].map((tag) => [
        tag,
        (tagName: string, attribs: sanitizeHtml.Attributes) => {
          const kept = { ...attribs };
          if (kept.src !== undefined && !/^media:[A-Za-z0-9_./-]+$/.test(kept.src)) delete kept.src;
          return { tagName, attribs: kept };
        },
      ]),
    ),
  },
};

export function sanitizeItemHtml(html: string): string {
  return sanitizeHtml(html, options);
}
