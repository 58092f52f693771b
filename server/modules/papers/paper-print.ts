import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { PaperSet, SetItem } from '#machines/papers/paper-sets.ts';
import { sanitizeItemHtml } from '#server/lib/items/item-html.ts';

/**
 * The printed question paper and answer key of a set (issue 17, docs/decisions/0141): HTML
 * written here, printed to PDF by headless Chromium (Debian's /usr/bin/chromium, or
 * CHROME_PATH) through playwright-core. Chromium shapes Devanagari and Gujarati with HarfBuzz
 * (conjuncts, matras) from the bundled Noto fonts, embedded in the page as data URLs. The page
 * runs with JavaScript off and every request refused: item HTML (sanitized again here) can
 * neither run nor fetch anything.
 */

export interface PrintPaper {
  code: string;
  title: string;
  examName: string;
  durationMinutes: number;
  totalMarks: number;
  instructions: Record<string, string>;
  calculator: boolean;
}

export interface PrintSection {
  sectionId: string;
  title: string;
  instructions: Record<string, string>;
  attemptAny: number | null;
  timeLimitMinutes: number | null;
  marksPerItem: number;
}

export interface PrintInput {
  paper: PrintPaper;
  sections: PrintSection[];
  set: PaperSet;
  items: Record<string, ItemContent>;
  /** One or two languages: the first is the paper's main language (e.g. ['en', 'hi']). */
  languages: string[];
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', hi: 'हिन्दी', gu: 'ગુજરાતી', fr: 'Français', es: 'Español' };
const UI: Record<string, Record<string, string>> = {
  en: {
    set: 'Set',
    duration: 'Time allowed',
    minutes: 'minutes',
    marks: 'Maximum marks',
    roll: 'Roll number',
    instructions: 'General instructions',
    section: 'Section',
    attempt: 'Attempt any',
    of: 'of',
    key: 'Answer key',
    missing: 'Not available in this language',
    calculator: 'Calculators are allowed.',
    noCalculator: 'Calculators are not allowed.',
    timeLimit: 'Time limit for this section',
    true: 'True',
    false: 'False',
  },
  hi: {
    set: 'सेट',
    duration: 'निर्धारित समय',
    minutes: 'मिनट',
    marks: 'अधिकतम अंक',
    roll: 'अनुक्रमांक',
    instructions: 'सामान्य निर्देश',
    section: 'खंड',
    attempt: 'कोई भी',
    of: 'में से',
    key: 'उत्तर कुंजी',
    missing: 'इस भाषा में उपलब्ध नहीं',
    calculator: 'कैलकुलेटर की अनुमति है।',
    noCalculator: 'कैलकुलेटर की अनुमति नहीं है।',
    timeLimit: 'इस खंड की समय सीमा',
    true: 'सत्य',
    false: 'असत्य',
  },
  gu: {
    set: 'સેટ',
    duration: 'નિર્ધારિત સમય',
    minutes: 'મિનિટ',
    marks: 'મહત્તમ ગુણ',
    roll: 'બેઠક નંબર',
    instructions: 'સામાન્ય સૂચનાઓ',
    section: 'વિભાગ',
    attempt: 'કોઈ પણ',
    of: 'માંથી',
    key: 'ઉત્તર ચાવી',
    missing: 'આ ભાષામાં ઉપલબ્ધ નથી',
    calculator: 'કેલ્ક્યુલેટરની છૂટ છે.',
    noCalculator: 'કેલ્ક્યુલેટરની છૂટ નથી.',
    timeLimit: 'આ વિભાગની સમય મર્યાદા',
    true: 'સાચું',
    false: 'ખોટું',
  },
  fr: {
    set: 'Série',
    duration: 'Durée',
    minutes: 'minutes',
    marks: 'Note maximale',
    roll: 'Numéro de candidat',
    instructions: 'Consignes générales',
    section: 'Partie',
    attempt: 'Traitez',
    of: 'questions sur',
    key: 'Corrigé',
    missing: 'Non disponible dans cette langue',
    calculator: 'La calculatrice est autorisée.',
    noCalculator: 'La calculatrice est interdite.',
    timeLimit: 'Temps imparti pour cette partie',
    true: 'Vrai',
    false: 'Faux',
  },
  es: {
    set: 'Versión',
    duration: 'Tiempo',
    minutes: 'minutos',
    marks: 'Puntuación máxima',
    roll: 'Número de candidato',
    instructions: 'Instrucciones generales',
    section: 'Sección',
    attempt: 'Responda',
    of: 'preguntas de',
    key: 'Clave de respuestas',
    missing: 'No disponible en este idioma',
    calculator: 'Se permite la calculadora.',
    noCalculator: 'No se permite la calculadora.',
    timeLimit: 'Tiempo para esta sección',
    true: 'Verdadero',
    false: 'Falso',
  },
};
const ui = (language: string, key: string) => UI[language]?.[key] ?? UI.en[key];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const label = (index: number) => String.fromCharCode(65 + index);

const fontCss = new Map<string, string>();
const FACES = {
  devanagari: ['Noto Sans Devanagari', 'noto-sans-devanagari'],
  gujarati: ['Noto Sans Gujarati', 'noto-sans-gujarati'],
} as const;
export type IndicScript = keyof typeof FACES;
/**
 * The Noto faces as data URLs (read once): a printed page must not fetch anything. `scripts`
 * narrows them (an admit card needs only its medium's script: a smaller page prints faster).
 */
export function fonts(scripts: readonly IndicScript[] = ['devanagari', 'gujarati']): string {
  const key = scripts.join(',');
  const cached = fontCss.get(key);
  if (cached !== undefined) return cached;
  const require = createRequire(import.meta.url);
  const face = (family: string, pkg: string, subset: string, weight: number) => {
    const file = require.resolve(`@fontsource/${pkg}/files/${pkg}-${subset}-${weight}-normal.woff2`);
    return `@font-face{font-family:'${family}';font-weight:${weight};font-style:normal;src:url(data:font/woff2;base64,${readFileSync(file).toString('base64')}) format('woff2');}`;
  };
  const css = [400, 700].flatMap((w) => scripts.map((script) => face(FACES[script][0], FACES[script][1], script, w))).join('\n');
  fontCss.set(key, css);
  return css;
}

const styles = () => `
${fonts()}
@page { size: A4; margin: 22mm 14mm 18mm 14mm; }
* { box-sizing: border-box; }
body { font-family: 'DejaVu Sans', 'Liberation Sans', 'Noto Sans Devanagari', 'Noto Sans Gujarati', sans-serif; font-size: 10.5pt; line-height: 1.45; color: #000; margin: 0; }
[lang=hi] { font-family: 'Noto Sans Devanagari', 'DejaVu Sans', sans-serif; }
[lang=gu] { font-family: 'Noto Sans Gujarati', 'DejaVu Sans', sans-serif; }
h1 { font-size: 17pt; margin: 0 0 4mm; text-align: center; }
h2 { font-size: 12.5pt; margin: 6mm 0 2mm; border-bottom: 1px solid #000; padding-bottom: 1mm; }
.cover { page-break-after: always; }
.cover .meta { display: flex; justify-content: space-between; margin: 6mm 0; font-weight: 700; }
.set-letter { font-size: 40pt; font-weight: 700; border: 3px solid #000; width: 26mm; height: 26mm; display: flex; align-items: center; justify-content: center; margin: 4mm auto; }
.roll { display: flex; align-items: center; gap: 3mm; margin: 6mm 0; }
.roll .boxes { display: flex; }
.roll .boxes span { width: 8mm; height: 9mm; border: 1px solid #000; margin-right: -1px; }
.instructions { border: 1px solid #000; padding: 3mm 4mm; margin-top: 4mm; }
.instructions p { margin: 1mm 0; }
.q { display: grid; grid-template-columns: 9mm 1fr 12mm; gap: 1mm 2mm; break-inside: avoid; margin: 3mm 0; }
.q .num { font-weight: 700; }
.q .marks { text-align: right; font-weight: 700; }
.q .stem > * { margin: 0 0 1mm; }
.q .stem p { margin: 0 0 1mm; }
.q ol.opts { list-style: none; padding: 0; margin: 1mm 0 0; display: grid; grid-template-columns: 1fr 1fr; gap: 1mm 6mm; }
.q ol.opts li { display: flex; gap: 2mm; }
.q ol.opts li > b { flex: none; }
.alt { color: #222; }
.missing { font-style: italic; color: #444; }
.section-note { font-style: italic; margin: 0 0 2mm; }
table.key { border-collapse: collapse; width: 100%; }
table.key th, table.key td { border: 1px solid #000; padding: 1mm 2mm; text-align: left; font-size: 10pt; }
img { max-width: 100%; }
`;

function variantText(content: ItemContent, language: string) {
  return content.variants[language];
}

/** The stem in each language (the second one after the first, marked "alt"). */
function stemHtml(content: ItemContent, languages: string[]): string {
  return languages
    .map((language, index) => {
      const variant = variantText(content, language);
      const cls = index === 0 ? 'stem' : 'stem alt';
      if (!variant) return `<div class="${cls} missing" lang="${language}">(${escapeHtml(ui(language, 'missing'))})</div>`;
      return `<div class="${cls}" lang="${language}">${sanitizeItemHtml(variant.stem)}</div>`;
    })
    .join('');
}

/**
 * An option's text in each language, joined with " / "; a text that reads the same in the next
 * language (a number, a formula) is printed once.
 */
function optionHtml(content: ItemContent, id: string, languages: string[]): string {
  const seen = new Set<string>();
  return languages
    .map((language) => {
      const text = variantText(content, language)?.choices?.[id];
      if (text === undefined) return '';
      const html = sanitizeItemHtml(text).replace(/^<p>([\s\S]*)<\/p>$/, '$1');
      const plain = html
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (seen.has(plain)) return '';
      seen.add(plain);
      return `<span lang="${language}">${html}</span>`;
    })
    .filter(Boolean)
    .join(' / ');
}

function optionsHtml(item: SetItem, content: ItemContent, languages: string[]): string {
  if (item.options) {
    return `<ol class="opts">${item.options.map((id, i) => `<li><b>(${label(i)})</b><div>${optionHtml(content, id, languages)}</div></li>`).join('')}</ol>`;
  }
  if (item.left && item.right) {
    const rows = Math.max(item.left.length, item.right.length);
    const cells = Array.from({ length: rows }, (_, i) => {
      const left = item.left![i] ? `<b>(${i + 1})</b> ${optionHtml(content, item.left![i], languages)}` : '';
      const right = item.right![i] ? `<b>(${label(i)})</b> ${optionHtml(content, item.right![i], languages)}` : '';
      return `<li><div>${left}</div></li><li><div>${right}</div></li>`;
    });
    return `<ol class="opts">${cells.join('')}</ol>`;
  }
  if (content.kind === 'trueFalse') {
    const word = (key: string) => languages.map((l) => `<span lang="${l}">${escapeHtml(ui(l, key))}</span>`).join(' / ');
    return `<ol class="opts"><li><b>(A)</b><div>${word('true')}</div></li><li><b>(B)</b><div>${word('false')}</div></li></ol>`;
  }
  return '';
}

function pageShell(lang: string, title: string, body: string) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${styles()}</style></head><body>${body}</body></html>`;
}

/** The question paper of a set: cover (title, set letter, roll-number box, instructions), then the sections. */
export function questionPaperHtml(input: PrintInput): string {
  const { paper, set, languages } = input;
  const [main] = languages;
  const instructions = languages
    .map((l) =>
      paper.instructions[l]
        ? `<div lang="${l}"><b>${escapeHtml(ui(l, 'instructions'))}</b>${paper.instructions[l]
            .split(/\n+/)
            .map((line) => `<p>${escapeHtml(line)}</p>`)
            .join('')}</div>`
        : '',
    )
    .join('');
  const both = (key: string) => languages.map((l) => `<span lang="${l}">${escapeHtml(ui(l, key))}</span>`).join(' / ');
  const cover = `<section class="cover">
    <h1>${escapeHtml(paper.examName)}</h1>
    <h1>${escapeHtml(paper.title)}</h1>
    <p style="text-align:center">${escapeHtml(paper.code)} · ${languages.map((l) => `<span lang="${l}">${escapeHtml(LANGUAGE_NAMES[l] ?? l)}</span>`).join(' + ')}</p>
    <div class="set-letter" aria-label="Set ${escapeHtml(set.letter)}">${escapeHtml(set.letter)}</div>
    <p style="text-align:center">${both('set')} ${escapeHtml(set.letter)}</p>
    <div class="meta"><span>${both('duration')}: ${paper.durationMinutes} ${both('minutes')}</span><span>${both('marks')}: ${paper.totalMarks}</span></div>
    <div class="roll"><b>${both('roll')}</b><div class="boxes">${'<span></span>'.repeat(10)}</div></div>
    <div class="instructions">${instructions}<p>${languages.map((l) => `<span lang="${l}">${escapeHtml(ui(l, paper.calculator ? 'calculator' : 'noCalculator'))}</span>`).join(' / ')}</p></div>
  </section>`;
  const sections = set.sections
    .map((section) => {
      const meta = input.sections.find((s) => s.sectionId === section.sectionId);
      const title = meta?.title ?? section.sectionId;
      const note = meta?.attemptAny
        ? `<p class="section-note">${languages.map((l) => `<span lang="${l}">${escapeHtml(`${ui(l, 'attempt')} ${meta.attemptAny} ${ui(l, 'of')} ${section.items.length}`)}</span>`).join(' / ')}</p>`
        : '';
      const timeLimit = meta?.timeLimitMinutes
        ? `<p class="section-note">${languages
            .map((l) => `<span lang="${l}">${escapeHtml(`${ui(l, 'timeLimit')}: ${meta.timeLimitMinutes} ${ui(l, 'minutes')}`)}</span>`)
            .join(' / ')}</p>`
        : '';
      const sectionInstructions = languages
        .map((l) => (meta?.instructions[l] ? `<p class="section-note" lang="${l}">${escapeHtml(meta.instructions[l])}</p>` : ''))
        .join('');
      const questions = section.items
        .map((item) => {
          const content = input.items[item.versionId];
          return `<div class="q"><span class="num">${item.number}.</span><div>${stemHtml(content, languages)}${optionsHtml(item, content, languages)}</div><span class="marks">[${item.marks}]</span></div>`;
        })
        .join('');
      return `<section><h2>${escapeHtml(title)}</h2>${sectionInstructions}${note}${timeLimit}${questions}</section>`;
    })
    .join('');
  return pageShell(main, `${paper.code} set ${set.letter}`, cover + sections);
}

/** The answer of one item in this set's order: option labels as printed, else the key itself. */
export function answerOf(item: SetItem, content: ItemContent): string {
  const labelOf = (order: string[] | null, id: string) => (order ? label(order.indexOf(id)) : id);
  switch (content.kind) {
    case 'singleChoice':
      return labelOf(item.options, content.correct);
    case 'multipleChoice':
      return content.correct
        .map((id) => labelOf(item.options, id))
        .sort()
        .join(', ');
    case 'ordering':
      return content.correctOrder.map((id) => labelOf(item.options, id)).join(' → ');
    case 'trueFalse':
      return content.correct ? 'A (True)' : 'B (False)';
    case 'numeric':
      return `${content.answer}${content.tolerance.value ? ` (± ${content.tolerance.value}${content.tolerance.mode === 'relative' ? ' %' : ''})` : ''}`;
    case 'shortText':
      return content.answers.map((a) => a.text).join(' | ');
    case 'fillInBlanks':
      return content.gaps.map((g, i) => `${i + 1}: ${g.answers.map((a) => a.text).join(' | ')}`).join('; ');
    case 'matching':
      return content.pairs.map((p) => `${(item.left?.indexOf(p.left) ?? 0) + 1}–${labelOf(item.right, p.right)}`).join(', ');
    case 'essay':
      return '(marked by examiners)';
  }
}

/** The answer key of a set: question number, answer as printed in this set, marks. */
export function answerKeyHtml(input: PrintInput): string {
  const { paper, set } = input;
  const rows = set.sections
    .flatMap((section) =>
      section.items.map((item) => `<tr><td>${item.number}</td><td>${escapeHtml(answerOf(item, input.items[item.versionId]))}</td><td>${item.marks}</td></tr>`),
    )
    .join('');
  const body = `<h1>${escapeHtml(paper.title)}</h1><h2>${escapeHtml(ui('en', 'key'))} — ${escapeHtml(ui('en', 'set'))} ${escapeHtml(set.letter)} (${escapeHtml(paper.code)})</h2>
    <table class="key"><thead><tr><th>Q.</th><th>Answer</th><th>Marks</th></tr></thead><tbody>${rows}</tbody></table>`;
  return pageShell('en', `${paper.code} set ${set.letter} answer key`, body);
}

export class PrintUnavailable extends Error {}

/**
 * One headless Chromium per server, launched on the first print and closed with the server;
 * at most two pages print at once (the machine has few cores).
 */
export class PdfPrinter {
  private browser: Promise<Browser> | undefined;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium',
    private readonly maxPages = 2,
  ) {}

  private async launch(): Promise<Browser> {
    if (!existsSync(this.chromePath))
      throw new PrintUnavailable(`PDF printing is not available on this server: no Chromium at ${this.chromePath} (set CHROME_PATH).`);
    const { chromium } = await import('playwright-core');
    return chromium.launch({
      executablePath: this.chromePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }

  private async slot(): Promise<() => void> {
    if (this.running >= this.maxPages) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    return () => {
      this.running -= 1;
      this.waiting.shift()?.();
    };
  }

  /** Pages kept open between prints (JavaScript off, offline, every request refused): a new context per print costs more than the print. */
  private readonly idle: Page[] = [];

  private async pageOf(browser: Browser): Promise<Page> {
    const kept = this.idle.pop();
    if (kept && !kept.isClosed()) return kept;
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    const page = await context.newPage();
    await page.route('**/*', (route) => route.abort());
    return page;
  }

  /**
   * `header` null: no header or footer, the page's own CSS sets the margins (admit cards, issue 18).
   * `header.rollBox`: the roll-number box on every page (the question paper; not its answer key).
   */
  async print(html: string, header: { left: string; right: string; rollBox?: boolean } | null): Promise<Buffer> {
    this.browser ??= this.launch().catch((error) => {
      this.browser = undefined;
      throw error;
    });
    const browser = await this.browser;
    const release = await this.slot();
    let page: Page | undefined;
    let reusable = false;
    try {
      page = await this.pageOf(browser);
      await page.setContent(html, { waitUntil: 'load' });
      const text = (s: string) => escapeHtml(s);
      const pdf =
        header === null
          ? await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true })
          : await page.pdf({
              format: 'A4',
              printBackground: true,
              displayHeaderFooter: true,
              margin: { top: '22mm', bottom: '18mm', left: '14mm', right: '14mm' },
              headerTemplate: `<div style="font-family:'DejaVu Sans',sans-serif;font-size:8.5px;width:100%;padding:0 14mm;display:flex;justify-content:space-between;align-items:center"><span>${text(header.left)}</span><span style="font-size:12px;font-weight:700">${text(header.right)}</span><span>${header.rollBox === false ? '' : 'Roll No. <span style="display:inline-block;width:36mm;height:4.5mm;border:1px solid #000;vertical-align:middle"></span>'}</span></div>`,
              footerTemplate: `<div style="font-family:'DejaVu Sans',sans-serif;font-size:8.5px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`,
            });
      reusable = true;
      return pdf;
    } finally {
      // A page that failed is not trusted again; a good one waits for the next print.
      if (page && reusable) this.idle.push(page);
      else
        await page
          ?.context()
          .close()
          .catch(() => {});
      release();
    }
  }

  /** Pages holding a loaded shell (its styles and web fonts decoded), by the shell's key. */
  private readonly shells = new Map<string, Page[]>();

  /**
   * Prints one document of a kind printed again and again (admit cards, docs/decisions/0237): a
   * page is loaded once with `shell` — the head with the styles and embedded fonts — and kept;
   * each print only sets the document's language, title and body (HTML the caller escaped;
   * JavaScript stays off, so nothing in it runs), waits for its images and fonts, and prints.
   * No header or footer: the shell's CSS sets the margins.
   */
  async printInShell(key: string, shell: string, fill: { lang: string; title: string; body: string }): Promise<Buffer> {
    this.browser ??= this.launch().catch((error) => {
      this.browser = undefined;
      throw error;
    });
    const browser = await this.browser;
    const release = await this.slot();
    const pool = this.shells.get(key) ?? [];
    this.shells.set(key, pool);
    let page: Page | undefined;
    let reusable = false;
    try {
      page = pool.pop();
      if (!page || page.isClosed()) {
        const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
        page = await context.newPage();
        await page.route('**/*', (route) => route.abort());
        await page.setContent(shell, { waitUntil: 'load' });
      }
      await page.evaluate(async ({ lang, title, body }) => {
        document.documentElement.lang = lang;
        document.title = title;
        document.body.innerHTML = body;
        await Promise.all([...document.images].map((image) => image.decode().catch(() => undefined)));
        await document.fonts.ready;
      }, fill);
      const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
      reusable = true;
      return pdf;
    } finally {
      if (page && reusable) pool.push(page);
      else
        await page
          ?.context()
          .close()
          .catch(() => {});
      release();
    }
  }

  async close(): Promise<void> {
    const pending = this.browser;
    this.browser = undefined;
    this.idle.length = 0;
    this.shells.clear();
    if (pending) await (await pending.catch(() => undefined))?.close().catch(() => {});
  }
}
