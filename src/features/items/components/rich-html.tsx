import DOMPurify from 'dompurify';
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { css, cx } from '#styled-system/css';

/**
 * Item HTML on screen (docs/decisions/0122, 0128): sanitized again here with DOMPurify — the
 * server's allow list is the first line, this the second — with the same rules: no links, no
 * `style`/`class`, no event handlers, only `media:` sources (resolved to the item's own files),
 * MathML allowed, `data-gap` / `data-latex` kept. TeX in `span[data-latex]` is typeset with KaTeX
 * as MathML, loaded only when an item has some.
 */
const FORBID_TAGS = ['a', 'style', 'script', 'iframe', 'object', 'embed', 'form', 'input', 'button', 'textarea', 'select', 'svg', 'link', 'meta', 'base'];
const MEDIA_URL = /^(?:media:|blob:)/i;

let hooked = false;
function ensureHooks() {
  if (hooked) return;
  hooked = true;
  // Anything a `src` names must be a file of the item (media:) or what it was resolved to (blob:).
  DOMPurify.addHook('uponSanitizeAttribute', (_node, data) => {
    if ((data.attrName === 'src' || data.attrName === 'poster' || data.attrName === 'srcset') && !MEDIA_URL.test(data.attrValue.trim())) data.keepAttr = false;
    // The profiles replace ADD_ATTR: the attributes of ours are kept here, values checked.
    else if (data.attrName === 'data-gap') data.forceKeepAttr = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(data.attrValue) || undefined;
    else if (data.attrName === 'data-latex' || data.attrName === 'lang' || data.attrName === 'dir')
      data.forceKeepAttr = data.attrValue.length <= 5000 || undefined;
  });
}

/** Sanitized item HTML as a string (tests and the editor's paste use it). */
export function sanitizeItemHtml(html: string): string {
  ensureHooks();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true, mathMl: true },
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'class', 'href', 'xlink:href', 'action', 'formaction', 'srcdoc'],
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: MEDIA_URL,
  });
}

/** Replaces `media:<key>` sources with the resolved URLs; unresolved ones are dropped. */
function resolveMedia(html: string, media: Record<string, string>): string {
  return html.replace(/\b(src|poster)="media:([^"]*)"/g, (_m, attr: string, key: string) => {
    const url = media[key];
    return url ? `${attr}="${url}"` : `data-missing-media="${key}"`;
  });
}

let katexLoading: Promise<(typeof import('katex'))['default']> | undefined;
const loadKatex = () => (katexLoading ??= import('katex').then((m) => m.default));

/** Typesets every `span[data-latex]` inside an element (MathML output: no stylesheet needed). */
export async function typesetMath(root: HTMLElement): Promise<void> {
  const spans = [...root.querySelectorAll<HTMLElement>('span[data-latex]')];
  for (const span of spans) await typesetSpan(span);
}

/** Typesets one `span[data-latex]` in place. */
export async function typesetSpan(span: HTMLElement): Promise<void> {
  const latex = span.dataset.latex ?? '';
  const katex = await loadKatex();
  try {
    katex.render(latex, span, { throwOnError: false, output: 'mathml', trust: false, maxSize: 50, maxExpand: 1000 });
  } catch {
    span.textContent = latex;
  }
}

export interface RichHtmlProps {
  html: string;
  /** Resolved media: key → object URL. */
  media?: Record<string, string>;
  lang?: string;
  dir?: 'ltr' | 'rtl';
  className?: string;
  /** Renders something in place of each `span[data-gap]` (the preview's answer boxes). */
  renderGap?: (gapId: string) => ReactNode;
  testId?: string;
  as?: 'div' | 'span';
}

const richStyle = css({
  '& p': { my: '1' },
  '& ul, & ol': { ps: '6', my: '1' },
  '& ul': { listStyleType: 'disc' },
  '& ol': { listStyleType: 'decimal' },
  '& table': { borderCollapse: 'collapse', my: '2' },
  '& td, & th': { borderWidth: '1px', borderColor: 'border.strong', px: '2', py: '1' },
  '& img': { maxWidth: '100%', height: 'auto' },
  '& [data-missing-media]': { display: 'inline-block', minWidth: '8', minHeight: '4', borderWidth: '1px', borderStyle: 'dashed', borderColor: 'border.strong' },
});

export function RichHtml({ html, media = {}, lang, dir, className, renderGap, testId, as = 'div' }: RichHtmlProps) {
  const ref = useRef<HTMLElement>(null);
  const clean = useMemo(() => resolveMedia(sanitizeItemHtml(html), media), [html, media]);
  const [gaps, setGaps] = useState<HTMLElement[]>([]);
  const withGaps = Boolean(renderGap);
  // The HTML is set only when it changes, so boxes placed in the gaps keep their focus while typing.
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    root.innerHTML = clean;
    setGaps(withGaps ? [...root.querySelectorAll<HTMLElement>('span[data-gap]')] : []);
    void typesetMath(root);
  }, [clean, withGaps]);
  const Tag = as;
  return (
    <>
      <Tag ref={ref as never} lang={lang} dir={dir} className={cx(richStyle, className)} data-testid={testId} />
      {renderGap ? gaps.map((span) => createPortal(renderGap(span.dataset.gap ?? ''), span, span.dataset.gap)) : null}
    </>
  );
}
