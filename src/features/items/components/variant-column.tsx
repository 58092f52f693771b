import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { choiceLists, type TextField } from '#machines/items/item-draft.ts';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { RichHtml } from './rich-html.tsx';
import { languageName } from '#src/lib/language-name.ts';

/** Tiptap, ProseMirror and KaTeX: their own chunk, loaded when the first field shows. */
const RichTextEditor = lazy(() => import('./rich-text-editor.tsx'));

/** Languages written right to left (none of en, hi, gu; a project may add one). */
const RTL = new Set(['ar', 'he', 'fa', 'ur']);
export const dirOf = (language: string): 'ltr' | 'rtl' => (RTL.has(language.split('-')[0]) ? 'rtl' : 'ltr');

export interface VariantColumnProps {
  content: ItemContent;
  language: string;
  present: boolean;
  readOnly: boolean;
  media: Record<string, string>;
  onText: (language: string, field: TextField) => void;
  onAdd: () => void;
  onRemove: () => void;
  pickImage: () => Promise<string | null>;
}

const column = css({
  display: 'grid',
  gap: '3',
  alignContent: 'start',
  minWidth: '72',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  p: '3',
  bg: 'bg.surface',
});
const fieldLabel = css({ fontWeight: 'medium', fontSize: 'sm', display: 'block', mb: '1' });

function Field({
  label,
  html,
  onChange,
  language,
  readOnly,
  media,
  pickImage,
  gapIds,
  compact,
  testId,
}: {
  label: string;
  html: string;
  onChange: (html: string) => void;
  language: string;
  readOnly: boolean;
  media: Record<string, string>;
  pickImage: () => Promise<string | null>;
  gapIds?: string[];
  compact?: boolean;
  testId: string;
}) {
  const dir = dirOf(language);
  return (
    <div>
      <span className={fieldLabel} aria-hidden="true">
        {label}
      </span>
      {readOnly ? (
        <div
          role="group"
          aria-label={label}
          className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', px: '3', py: '2', minHeight: '8' })}
        >
          <RichHtml html={html} media={media} lang={language} dir={dir} testId={testId} />
        </div>
      ) : (
        <Suspense fallback={<div className={css({ minHeight: '16', borderWidth: '1px', borderColor: 'border', borderRadius: 'md' })} aria-busy="true" />}>
          <RichTextEditor
            label={label}
            value={html}
            onChange={onChange}
            lang={language}
            dir={dir}
            media={media}
            pickImage={pickImage}
            gapIds={gapIds}
            compact={compact}
            testId={testId}
          />
        </Suspense>
      )}
    </div>
  );
}

/** One language of the item: its stem, option texts and rubric — or a note that it is missing. */
export function VariantColumn({ content, language, present, readOnly, media, onText, onAdd, onRemove, pickImage }: VariantColumnProps) {
  const { t, i18n } = useTranslation('items');
  const name = t(`language.${language}`, { defaultValue: languageName(language, i18n.language) });
  const variant = content.variants[language];
  const heading = (
    <div className={css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'space-between' })}>
      <h3 className={css({ fontWeight: 'semibold' })} id={`variant-${language}`}>
        {name}
      </h3>
      {present ? (
        !readOnly && Object.keys(content.variants).length > 1 ? (
          <Button size="sm" variant="ghost" onClick={onRemove} data-testid={`remove-variant-${language}`}>
            {t('variant.remove', { language: name })}
          </Button>
        ) : null
      ) : (
        <Badge tone="warning" testId={`variant-missing-${language}`}>
          {t('variant.missing')}
        </Badge>
      )}
    </div>
  );
  if (!present || !variant)
    return (
      <section aria-labelledby={`variant-${language}`} className={column} data-testid={`variant-${language}`}>
        {heading}
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('variant.missingHint', { language: name })}</p>
        {readOnly ? null : (
          <div>
            <Button size="sm" variant="outline" onClick={onAdd} data-testid={`add-variant-${language}`}>
              {t('variant.add', { language: name })}
            </Button>
          </div>
        )}
      </section>
    );
  const gapIds = content.kind === 'fillInBlanks' ? content.gaps.map((g) => g.id) : undefined;
  const common = { language, readOnly, media, pickImage };
  return (
    <section aria-labelledby={`variant-${language}`} className={column} data-testid={`variant-${language}`}>
      {heading}
      <Field
        {...common}
        label={t('variant.stem', { language: name })}
        html={variant.stem}
        gapIds={gapIds}
        onChange={(stem) => onText(language, { stem })}
        testId={`stem-${language}`}
      />
      {choiceLists(content).map((choices, listIndex) =>
        choices.map((choice) => (
          <Field
            key={choice.id}
            {...common}
            compact
            label={t(content.kind === 'matching' ? (listIndex === 0 ? 'variant.leftNamed' : 'variant.rightNamed') : 'variant.optionNamed', {
              id: choice.id,
              language: name,
            })}
            html={variant.choices?.[choice.id] ?? ''}
            onChange={(html) => onText(language, { choice: choice.id, html })}
            testId={`choice-${language}-${choice.id}`}
          />
        )),
      )}
      {content.kind === 'essay' ? (
        <Field
          {...common}
          label={t('variant.rubric', { language: name })}
          html={variant.rubric ?? ''}
          onChange={(rubric) => onText(language, { rubric })}
          testId={`rubric-${language}`}
        />
      ) : null}
    </section>
  );
}
