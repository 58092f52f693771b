import { mergeAttributes, Node } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { RichHtml, sanitizeItemHtml, typesetSpan } from './rich-html.tsx';

/**
 * The rich text field of stems, options and rubrics (docs/decisions/0128): Tiptap with only what
 * the server's allow list keeps (0122) — bold, italic, underline, lists, tables, images of the
 * item's category files, TeX mathematics (`span[data-latex]`, typeset with KaTeX) and imported
 * MathML kept as it is — plus the gap placeholders of fill-in-the-blanks. This module and its
 * dependencies are one lazy chunk, loaded when an editor first shows a field.
 */

/** A gap of fill in the blanks: `<span data-gap="G1"></span>`, shown as a chip. */
const Gap = Node.create({
  name: 'gap',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return { id: { default: null, parseHTML: (el) => el.getAttribute('data-gap'), renderHTML: (attrs) => ({ 'data-gap': attrs.id as string }) } };
  },
  parseHTML() {
    return [{ tag: 'span[data-gap]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['span', mergeAttributes(HTMLAttributes)];
  },
  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('span');
      dom.textContent = `[${String(node.attrs.id)}]`;
      dom.dataset.gapChip = String(node.attrs.id);
      dom.contentEditable = 'false';
      return { dom };
    };
  },
});

/** TeX: `<span data-latex="…"></span>`, typeset in place. */
const MathTex = Node.create({
  name: 'mathTex',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return { latex: { default: '', parseHTML: (el) => el.getAttribute('data-latex') ?? '', renderHTML: (attrs) => ({ 'data-latex': attrs.latex as string }) } };
  },
  parseHTML() {
    return [{ tag: 'span[data-latex]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['span', mergeAttributes(HTMLAttributes)];
  },
  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('span');
      dom.dataset.latex = String(node.attrs.latex);
      dom.contentEditable = 'false';
      void typesetSpan(dom);
      return { dom };
    };
  },
});

/** Presentation MathML from an imported item: kept whole (sanitized) rather than lost on save. */
const MathMl = Node.create({
  name: 'mathMl',
  group: 'inline',
  inline: true,
  atom: true,
  addAttributes() {
    return { xml: { default: '' } };
  },
  parseHTML() {
    return [{ tag: 'math', getAttrs: (el) => ({ xml: sanitizeItemHtml((el as Element).outerHTML) }) }];
  },
  renderHTML({ node }) {
    const holder = document.createElement('span');
    holder.innerHTML = sanitizeItemHtml(String(node.attrs.xml));
    return holder.firstElementChild ?? ['span', {}];
  },
});

export interface RichTextEditorProps {
  label: string;
  value: string;
  onChange: (html: string) => void;
  lang: string;
  dir: 'ltr' | 'rtl';
  /** key → displayable URL of the item's media, so `media:` images show while editing. */
  media: Record<string, string>;
  /** Picks a category file as an image; answers its media key, or null. */
  pickImage?: () => Promise<string | null>;
  /** Fill in the blanks: the gap ids that can be placed. */
  gapIds?: string[];
  readOnly?: boolean;
  compact?: boolean;
  testId?: string;
}

const toUrls = (html: string, media: Record<string, string>) =>
  html.replace(/src="media:([^"]*)"/g, (m, key: string) => (media[key] ? `src="${media[key]}" data-media="${key}"` : m));
const toKeys = (html: string) => html.replace(/src="[^"]*" data-media="([^"]*)"/g, 'src="media:$1"').replace(/ data-media="[^"]*"/g, '');

const toolbar = css({ display: 'flex', flexWrap: 'wrap', gap: '1', p: '1', borderBottomWidth: '1px', borderColor: 'border' });
const frame = css({
  borderWidth: '1px',
  borderColor: 'border.strong',
  borderRadius: 'md',
  bg: 'bg.surface',
  _focusWithin: { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '1px' },
});
const area = css({
  '& .ProseMirror': { minHeight: '16', px: '3', py: '2', outline: 'none' },
  '& .ProseMirror[data-compact=true]': { minHeight: '8' },
  '& p': { my: '1' },
  '& ul': { listStyleType: 'disc', ps: '6' },
  '& ol': { listStyleType: 'decimal', ps: '6' },
  '& table': { borderCollapse: 'collapse' },
  '& td, & th': { borderWidth: '1px', borderColor: 'border.strong', px: '2', py: '1', minWidth: '8' },
  '& img': { maxWidth: '60', display: 'inline' },
  '& [data-gap-chip]': { bg: 'primary.lighter', color: 'primary.dark', borderRadius: 'sm', px: '1', fontFamily: 'mono', fontSize: 'xs' },
});

const glyphs = {
  bold: 'M15.6 10.79c.97-.67 1.65-1.77 1.65-2.79 0-2.26-1.75-4-4-4H7v14h7.04c2.09 0 3.71-1.7 3.71-3.79 0-1.52-.86-2.82-2.15-3.42zM10 6.5h3c.83 0 1.5.67 1.5 1.5s-.67 1.5-1.5 1.5h-3v-3zm3.5 9H10v-3h3.5c.83 0 1.5.67 1.5 1.5s-.67 1.5-1.5 1.5z',
  italic: 'M10 4v3h2.21l-3.42 8H6v3h8v-3h-2.21l3.42-8H18V4z',
  orderedList: 'M2 17h2v.5H3v1h1v.5H2v1h3v-4H2v1zm1-9h1V4H2v1h1v3zm-1 3h1.8L2 13.1v.9h3v-1H3.2L5 10.9V10H2v1zm5-6v2h14V5H7zm0 14h14v-2H7v2zm0-6h14v-2H7v2z',
  bulletList:
    'M4 10.5c-.83 0-1.5.67-1.5 1.5s.67 1.5 1.5 1.5 1.5-.67 1.5-1.5-.67-1.5-1.5-1.5zm0-6c-.83 0-1.5.67-1.5 1.5S3.17 7.5 4 7.5 5.5 6.83 5.5 6 4.83 4.5 4 4.5zm0 12c-.83 0-1.5.68-1.5 1.5s.68 1.5 1.5 1.5 1.5-.68 1.5-1.5-.67-1.5-1.5-1.5zM7 19h14v-2H7v2zm0-6h14v-2H7v2zm0-8v2h14V5H7z',
  underline: 'M12 17c3.31 0 6-2.69 6-6V3h-2.5v8c0 1.93-1.57 3.5-3.5 3.5S8.5 12.93 8.5 11V3H6v8c0 3.31 2.69 6 6 6zm-7 2v2h14v-2H5z',
};

function Glyph({ name }: { name: keyof typeof glyphs }) {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <path d={glyphs[name]} />
    </svg>
  );
}

function ToolButton({
  label,
  pressed,
  onClick,
  children,
  disabled,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <Button
      type="button"
      size="sm"
      variant={pressed ? 'solid' : 'ghost'}
      aria-label={label}
      aria-pressed={pressed}
      title={label}
      onClick={onClick}
      disabled={disabled}
    >
      {/* The glyph is decoration: the button is named by its label. */}
      <span aria-hidden="true">{children}</span>
    </Button>
  );
}

function MathDialog({ onClose, onInsert }: { onClose: () => void; onInsert: (latex: string) => void }) {
  const { t } = useTranslation('items');
  const [latex, setLatex] = useState('');
  return (
    <Dialog
      title={t('rich.mathTitle')}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        if (latex.trim()) onInsert(latex.trim());
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" disabled={!latex.trim()}>
            {t('rich.insert')}
          </Button>
        </>
      }
    >
      <TextField label={t('rich.tex')} hint={t('rich.texHint')} value={latex} onChange={(e) => setLatex(e.target.value)} autoFocus maxLength={2000} />
      <div aria-live="polite" className={css({ minHeight: '8' })}>
        {latex.trim() ? (
          <RichHtml as="span" html={`<span data-latex="${latex.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"></span>`} />
        ) : null}
      </div>
    </Dialog>
  );
}

function Toolbar({
  editor,
  label,
  pickImage,
  gapIds,
  onMath,
}: {
  editor: Editor;
  label: string;
  pickImage?: () => Promise<string | null>;
  gapIds?: string[];
  onMath: () => void;
}) {
  const { t } = useTranslation('items');
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      table: e.isActive('table'),
    }),
  });
  const chain = () => editor.chain().focus();
  // One tab stop for the whole toolbar; arrow keys, Home and End move along it (WAI-ARIA toolbar).
  const bar = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const buttons = () => [...(bar.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  useLayoutEffect(() => {
    const list = buttons();
    const current = Math.min(active, list.length - 1);
    list.forEach((button, index) => (button.tabIndex = index === current ? 0 : -1));
  });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = buttons();
    const index = list.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
    const next = step ? (index + step + list.length) % list.length : event.key === 'Home' ? 0 : event.key === 'End' ? list.length - 1 : -1;
    if (next < 0) return;
    event.preventDefault();
    setActive(next);
    list[next].focus();
  };
  return (
    <div
      ref={bar}
      role="toolbar"
      aria-label={t('rich.toolbar', { field: label })}
      className={toolbar}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        const index = buttons().indexOf(event.target as unknown as HTMLButtonElement);
        if (index >= 0) setActive(index);
      }}
    >
      <ToolButton label={t('rich.bold')} pressed={state.bold} onClick={() => chain().toggleBold().run()}>
        <Glyph name="bold" />
      </ToolButton>
      <ToolButton label={t('rich.italic')} pressed={state.italic} onClick={() => chain().toggleItalic().run()}>
        <Glyph name="italic" />
      </ToolButton>
      <ToolButton label={t('rich.underline')} pressed={state.underline} onClick={() => chain().toggleUnderline().run()}>
        <Glyph name="underline" />
      </ToolButton>
      <ToolButton label={t('rich.bulletList')} pressed={state.bullet} onClick={() => chain().toggleBulletList().run()}>
        <Glyph name="bulletList" />
      </ToolButton>
      <ToolButton label={t('rich.orderedList')} pressed={state.ordered} onClick={() => chain().toggleOrderedList().run()}>
        <Glyph name="orderedList" />
      </ToolButton>
      {state.table ? (
        <>
          <ToolButton label={t('rich.addRow')} onClick={() => chain().addRowAfter().run()}>
            +≡
          </ToolButton>
          <ToolButton label={t('rich.addColumn')} onClick={() => chain().addColumnAfter().run()}>
            +‖
          </ToolButton>
          <ToolButton label={t('rich.deleteTable')} onClick={() => chain().deleteTable().run()}>
            ✕▦
          </ToolButton>
        </>
      ) : (
        <ToolButton label={t('rich.table')} onClick={() => chain().insertTable({ rows: 2, cols: 2, withHeaderRow: false }).run()}>
          ▦
        </ToolButton>
      )}
      <ToolButton label={t('rich.math')} onClick={onMath}>
        ∑
      </ToolButton>
      {pickImage ? (
        <ToolButton
          label={t('rich.image')}
          onClick={() =>
            void pickImage().then((key) => {
              if (key)
                chain()
                  .setImage({ src: `media:${key}` })
                  .run();
            })
          }
        >
          🖼
        </ToolButton>
      ) : null}
      {gapIds?.map((id) => (
        <ToolButton key={id} label={t('rich.placeGap', { id })} onClick={() => chain().insertContent({ type: 'gap', attrs: { id } }).run()}>
          {`[${id}]`}
        </ToolButton>
      ))}
    </div>
  );
}

export default function RichTextEditor({
  label,
  value,
  onChange,
  lang,
  dir,
  media,
  pickImage,
  gapIds,
  readOnly = false,
  compact = false,
  testId,
}: RichTextEditorProps) {
  const emitted = useRef(value);
  const mediaRef = useRef(media);
  mediaRef.current = media;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [math, setMath] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, code: false, codeBlock: false, heading: { levels: [3, 4] } }),
      TableKit.configure({ table: { resizable: false } }),
      Image.configure({ inline: true, allowBase64: false }),
      Gap,
      MathTex,
      MathMl,
    ],
    content: toUrls(value, media),
    editable: !readOnly,
    editorProps: {
      attributes: {
        'aria-label': label,
        role: 'textbox',
        'aria-multiline': 'true',
        lang,
        dir,
        'data-compact': String(compact),
        ...(testId ? { 'data-testid': testId } : {}),
      },
      // Pasted HTML goes through the same sanitizer as rendering before the editor reads it.
      transformPastedHTML: (html) => sanitizeItemHtml(html),
    },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : toKeys(e.getHTML());
      // Only what the author changed counts: not the same text again, nor what the editor does on its own.
      if (html === emitted.current) return;
      emitted.current = html;
      onChangeRef.current(html);
    },
  });
  // A value changed from outside (a gap added, a reload after a conflict) replaces the content.
  useEffect(() => {
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(toUrls(value, mediaRef.current), { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => {
    // Without an update event: switching editability is no edit.
    editor?.setEditable(!readOnly, false);
  }, [editor, readOnly]);
  if (!editor) return null;
  return (
    <div className={frame} data-testid={testId ? `${testId}-frame` : undefined}>
      {readOnly ? null : <Toolbar editor={editor} label={label} pickImage={pickImage} gapIds={gapIds} onMath={() => setMath(true)} />}
      <EditorContent editor={editor} className={area} />
      {math ? (
        <MathDialog
          onClose={() => setMath(false)}
          onInsert={(latex) => {
            setMath(false);
            editor.chain().focus().insertContent({ type: 'mathTex', attrs: { latex } }).run();
          }}
        />
      ) : null}
    </div>
  );
}
