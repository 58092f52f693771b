import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import type { ScoreAnswer } from '#machines/items/item-records.ts';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import { countWords, score, type ScoreResult } from '#machines/items/score.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { itemsApi } from '../api/items-api.ts';
import { RichHtml } from './rich-html.tsx';
import { languageName } from '#src/lib/language-name.ts';
import { plainText } from '#machines/results/answer-text.ts';

/**
 * The item as a candidate sees it (docs/decisions/0128), in one language, light or dark, left to
 * right or right to left, and "try it": the shared scorer (machines/items/score.ts) scores the
 * response at once, and for a saved item the server's score endpoint scores it too, so the
 * author sees that both agree.
 */
export interface ItemPreviewProps {
  content: ItemContent;
  media: Record<string, string>;
  /** The stored item, when the preview shows what is stored (no unsaved edits): also scored by the server. */
  stored?: { itemId: number; versionNumber: number } | null;
  initialLanguage?: string;
}

type Answer = ItemResponse | undefined;

/** Light tokens inside a dark page (the app's dark tokens apply to [data-mode=dark] only). */
const lightVars = {
  '--colors-bg-surface': '#ffffff',
  '--colors-bg-canvas': '#f4f5f7',
  '--colors-fg-default': '#1b1d21',
  '--colors-fg-muted': '#4b5563',
  '--colors-border': '#d5d9e0',
  '--colors-border-strong': '#9aa3b2',
} as CSSProperties;

const frame = css({ bg: 'bg.surface', color: 'fg.default', borderWidth: '1px', borderColor: 'border', borderRadius: 'lg', p: '4', display: 'grid', gap: '3' });

/** The response control of one item kind, in one language (the set preview reuses it). */
export function ResponseInput({
  content,
  language,
  media,
  answer,
  onAnswer,
}: {
  content: ItemContent;
  language: string;
  media: Record<string, string>;
  answer: Answer;
  onAnswer: (a: Answer) => void;
}) {
  const { t } = useTranslation('items');
  const variant = content.variants[language];
  const text = (id: string) => variant?.choices?.[id] ?? '';
  const optionLabel = (id: string) => <RichHtml as="span" html={text(id)} media={media} lang={language} />;
  switch (content.kind) {
    case 'singleChoice':
      return (
        <ChoiceGroup
          title={t('preview.chooseOne')}
          name="preview-single"
          columns={1}
          value={typeof answer === 'string' ? answer : ''}
          onChange={(value) => onAnswer(value)}
          options={content.options.map((o) => ({
            value: o.id,
            label: optionLabel(o.id),
            ariaLabel: plainText(text(o.id)) || o.id,
            testId: `preview-option-${o.id}`,
          }))}
        />
      );
    case 'trueFalse':
      return (
        <ChoiceGroup
          title={t('preview.trueOrFalse')}
          name="preview-tf"
          value={answer === true ? 'true' : answer === false ? 'false' : ''}
          onChange={(value) => onAnswer(value === 'true')}
          options={[
            { value: 'true', label: t('preview.true'), testId: 'preview-option-true' },
            { value: 'false', label: t('preview.false'), testId: 'preview-option-false' },
          ]}
        />
      );
    case 'multipleChoice': {
      const chosen = Array.isArray(answer) ? (answer as string[]) : [];
      return (
        <fieldset className={css({ display: 'grid', gap: '2' })}>
          <legend className={css({ fontWeight: 'semibold', mb: '1' })}>{t('preview.chooseAll')}</legend>
          {content.options.map((o) => (
            <Checkbox
              key={o.id}
              testId={`preview-option-${o.id}`}
              checked={chosen.includes(o.id)}
              onChange={(on) => onAnswer(content.options.map((x) => x.id).filter((id) => (id === o.id ? on : chosen.includes(id))))}
            >
              {/* Named by its plain text (or its id while it has none): the rich rendering is for the eye. */}
              <span aria-hidden="true">{optionLabel(o.id)}</span>
              <span className={css({ srOnly: true })}>{plainText(text(o.id)) || o.id}</span>
            </Checkbox>
          ))}
        </fieldset>
      );
    }
    case 'numeric':
    case 'shortText':
      return (
        <TextField
          label={t('preview.yourAnswer')}
          inputMode={content.kind === 'numeric' ? 'decimal' : 'text'}
          value={typeof answer === 'string' ? answer : ''}
          onChange={(e) => onAnswer(e.target.value === '' ? null : e.target.value)}
          maxLength={content.kind === 'shortText' ? content.expectedLength * 4 : 64}
          data-testid="preview-text"
        />
      );
    case 'fillInBlanks':
      return null;
    case 'matching': {
      const pairs = Array.isArray(answer) ? (answer as [string, string][]) : [];
      return (
        <div className={css({ display: 'grid', gap: '2' })}>
          {content.left.map((l) => (
            <SelectField
              key={l.id}
              label={plainText(text(l.id)) || l.id}
              value={pairs.find((p) => p[0] === l.id)?.[1] ?? ''}
              placeholder={t('preview.noMatch')}
              options={content.right.map((r) => ({ value: r.id, label: plainText(text(r.id)) || r.id }))}
              onValueChange={(value) => {
                const rest = pairs.filter((p) => p[0] !== l.id);
                const next = value ? [...rest, [l.id, value] as [string, string]] : rest;
                onAnswer(next.length ? next : null);
              }}
              testId={`preview-match-${l.id}`}
            />
          ))}
        </div>
      );
    }
    case 'ordering': {
      const order = Array.isArray(answer) ? (answer as string[]) : content.options.map((o) => o.id);
      const moveTo = (index: number, by: -1 | 1) => {
        const next = [...order];
        [next[index], next[index + by]] = [next[index + by], next[index]];
        onAnswer(next);
      };
      return (
        <ol aria-label={t('preview.putInOrder')} className={css({ display: 'grid', gap: '2' })}>
          {order.map((id, index) => (
            <li
              key={id}
              className={css({ display: 'flex', gap: '2', alignItems: 'center', borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '2' })}
              data-testid={`preview-order-${id}`}
            >
              <span className={css({ flex: '1' })}>{optionLabel(id)}</span>
              <Button size="sm" variant="ghost" aria-label={t('preview.moveUp', { n: index + 1 })} disabled={index === 0} onClick={() => moveTo(index, -1)}>
                ↑
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('preview.moveDown', { n: index + 1 })}
                disabled={index === order.length - 1}
                onClick={() => moveTo(index, 1)}
              >
                ↓
              </Button>
            </li>
          ))}
        </ol>
      );
    }
    case 'essay': {
      const value = typeof answer === 'string' ? answer : '';
      const words = countWords(value);
      return (
        <TextAreaField
          label={t('preview.yourAnswer')}
          value={value}
          rows={6}
          onChange={(e) => onAnswer(e.target.value === '' ? null : e.target.value)}
          hint={content.wordLimit ? t('preview.wordsOf', { n: words, limit: content.wordLimit }) : t('preview.words', { n: words })}
          data-testid="preview-essay"
        />
      );
    }
  }
}

function ScoreLine({ label, result, testId }: { label: string; result: Pick<ScoreResult, 'score' | 'maxScore' | 'outcome'>; testId: string }) {
  const { t } = useTranslation('items');
  const tone = result.outcome === 'correct' ? 'success' : result.outcome === 'partial' ? 'warning' : result.outcome === 'wrong' ? 'error' : 'neutral';
  return (
    <p data-testid={testId} className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
      <span>{label}</span>
      <strong>{result.score === null ? t('preview.awaitingMarker') : t('preview.scoreOf', { score: result.score, max: result.maxScore })}</strong>
      <Badge tone={tone}>{t(`outcome.${result.outcome}`)}</Badge>
    </p>
  );
}

export function ItemPreview({ content, media, stored = null, initialLanguage }: ItemPreviewProps) {
  const { t, i18n } = useTranslation('items');
  const languages = Object.keys(content.variants);
  const [language, setLanguage] = useState(initialLanguage && content.variants[initialLanguage] ? initialLanguage : (languages[0] ?? 'en'));
  const [dark, setDark] = useState(false);
  const [rtl, setRtl] = useState(false);
  const [answer, setAnswer] = useState<Answer>(undefined);
  const [local, setLocal] = useState<ScoreResult | null>(null);
  const [server, setServer] = useState<ScoreAnswer | null>(null);
  const [serverError, setServerError] = useState(false);
  const [busy, setBusy] = useState(false);
  const lang = content.variants[language] ? language : (languages[0] ?? 'en');
  const variant = content.variants[lang];
  const gapAnswers =
    content.kind === 'fillInBlanks' && answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, string | null>) : {};

  const onAnswer = (next: Answer) => {
    setAnswer(next);
    setLocal(null);
    setServer(null);
  };

  const check = async () => {
    const response = (answer ?? null) as ItemResponse;
    try {
      setLocal(score(content, response));
    } catch {
      setLocal(null);
    }
    setServerError(false);
    if (!stored) return;
    setBusy(true);
    try {
      setServer(await itemsApi.score(stored.itemId, response, stored.versionNumber));
    } catch {
      setServerError(true);
    } finally {
      setBusy(false);
    }
  };

  const gapBox = (gapId: string) => {
    if (content.kind !== 'fillInBlanks') return null;
    const gap = content.gaps.find((g) => g.id === gapId);
    return (
      <input
        aria-label={t('preview.gap', { id: gapId })}
        data-testid={`preview-gap-${gapId}`}
        size={Math.min(40, Math.max(4, gap?.expectedLength ?? 10))}
        value={gapAnswers[gapId] ?? ''}
        onChange={(e) => onAnswer({ ...gapAnswers, [gapId]: e.target.value === '' ? null : e.target.value })}
        className={css({ borderBottomWidth: '2px', borderColor: 'border.strong', bg: 'transparent', px: '1', mx: '1', color: 'inherit' })}
      />
    );
  };

  return (
    <section aria-label={t('preview.title')} className={css({ display: 'grid', gap: '3' })} data-testid="item-preview">
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '4', alignItems: 'end' })}>
        <SelectField
          label={t('preview.language')}
          value={lang}
          onValueChange={(value) => setLanguage(value)}
          options={languages.map((l) => ({ value: l, label: t(`language.${l}`, { defaultValue: languageName(l, i18n.language) }) }))}
          testId="preview-language"
        />
        <Switch label={t('preview.dark')} checked={dark} onChange={setDark} testId="preview-dark" />
        <Switch label={t('preview.rtl')} checked={rtl} onChange={setRtl} testId="preview-rtl" />
      </div>
      <div
        data-mode={dark ? 'dark' : 'light'}
        dir={rtl ? 'rtl' : 'ltr'}
        lang={lang}
        style={dark ? undefined : lightVars}
        className={frame}
        data-testid="preview-frame"
      >
        {variant ? (
          <>
            <RichHtml html={variant.stem} media={media} lang={lang} renderGap={content.kind === 'fillInBlanks' ? gapBox : undefined} testId="preview-stem" />
            <ResponseInput content={content} language={lang} media={media} answer={answer} onAnswer={onAnswer} />
          </>
        ) : (
          <p>{t('preview.noVariant')}</p>
        )}
      </div>
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
        <Button onClick={() => void check()} loading={busy} data-testid="preview-check">
          {t('preview.check')}
        </Button>
        <Button variant="ghost" onClick={() => onAnswer(undefined)}>
          {t('preview.clear')}
        </Button>
      </div>
      <div aria-live="polite">
        {local ? <ScoreLine label={t('preview.scoreHere')} result={local} testId="preview-score-local" /> : null}
        {server ? <ScoreLine label={t('preview.scoreServer')} result={server} testId="preview-score-server" /> : null}
        {server && local && server.score !== local.score ? <p role="alert">{t('preview.disagree')}</p> : null}
        {serverError ? <p role="alert">{t('preview.serverFailed')}</p> : null}
        {!stored && local ? <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('preview.unsavedNote')}</p> : null}
      </div>
    </section>
  );
}
