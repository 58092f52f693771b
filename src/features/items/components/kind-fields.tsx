import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { addChoice, addGap, move, removeChoice, removeGap, toggleCorrect, toggleKeepLast, togglePair } from '#machines/items/item-draft.ts';
import type { ItemContent, ItemOf, PartialCredit } from '#machines/items/item-schema.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { Switch } from '#src/components/ui/switch.tsx';

/**
 * The language-independent part of an item, one form per kind (docs/decisions/0128): the key,
 * partial credit, tolerance, accepted answers with their case rule, gaps, pairs, order, the word
 * limit, and the marks. Texts are edited per language beside it (variant-column.tsx).
 */
export interface KindFieldsProps {
  content: ItemContent;
  onChange: (content: ItemContent) => void;
  readOnly: boolean;
  /** Option text in the first language present, to name options. */
  labelOf: (id: string) => string;
}

const row = css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'end' });
const list = css({ display: 'grid', gap: '2', listStyle: 'none', p: '0' });
const entry = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center', borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '2' });
const small = css({ width: '28' });

function num(text: string, fallback: number): number {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) ? value : fallback;
}

function NumberInput({
  label,
  value,
  onChange,
  readOnly,
  min,
  max,
  step = 'any',
  testId,
}: {
  label: string;
  value: number;
  onChange: (n: number) => void;
  readOnly: boolean;
  min?: number;
  max?: number;
  step?: string;
  testId?: string;
}) {
  return (
    <TextField
      className={small}
      label={label}
      type="number"
      value={String(value)}
      min={min}
      max={max}
      step={step}
      readOnly={readOnly}
      onChange={(e) => onChange(num(e.target.value, value))}
      data-testid={testId}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className={css({ display: 'grid', gap: '3', borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '3' })}>
      <legend className={css({ fontWeight: 'semibold', px: '1' })}>{title}</legend>
      {children}
    </fieldset>
  );
}

function PartialFields({ partial, onChange, readOnly }: { partial: PartialCredit | null; onChange: (p: PartialCredit | null) => void; readOnly: boolean }) {
  const { t } = useTranslation('items');
  const mode = partial === null ? 'none' : partial.wrongCancels ? 'cancel' : 'sum';
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <SelectField
        label={t('kind.partial')}
        value={mode}
        disabled={readOnly}
        onValueChange={(value) => {
          const next = value;
          if (next === 'none') onChange(null);
          else onChange({ perCorrect: partial?.perCorrect ?? 1, perWrong: partial?.perWrong ?? 0, wrongCancels: next === 'cancel' });
        }}
        options={[
          { value: 'none', label: t('kind.partialNone') },
          { value: 'sum', label: t('kind.partialSum') },
          { value: 'cancel', label: t('kind.partialCancel') },
        ]}
        testId="partial-mode"
      />
      {partial ? (
        <div className={row}>
          <NumberInput
            label={t('kind.perCorrect')}
            value={partial.perCorrect}
            min={0}
            readOnly={readOnly}
            onChange={(perCorrect) => onChange({ ...partial, perCorrect: Math.max(0, perCorrect) })}
            testId="partial-per-correct"
          />
          {partial.wrongCancels ? null : (
            <NumberInput
              label={t('kind.perWrong')}
              value={partial.perWrong}
              max={0}
              readOnly={readOnly}
              onChange={(perWrong) => onChange({ ...partial, perWrong: Math.min(0, perWrong) })}
              testId="partial-per-wrong"
            />
          )}
        </div>
      ) : null}
    </div>
  );
}

function ShuffleSwitch({
  content,
  onChange,
  readOnly,
}: {
  content: Extract<ItemContent, { shuffle: boolean }>;
  onChange: (c: ItemContent) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation('items');
  return <Switch label={t('kind.shuffle')} checked={content.shuffle} onChange={(shuffle) => !readOnly && onChange({ ...content, shuffle })} testId="shuffle" />;
}

function ChoiceOptions({ content, onChange, readOnly, labelOf }: KindFieldsProps & { content: ItemOf<'singleChoice'> | ItemOf<'multipleChoice'> }) {
  const { t } = useTranslation('items');
  const multiple = content.kind === 'multipleChoice';
  const isCorrect = (id: string) => (multiple ? content.correct.includes(id) : content.correct === id);
  return (
    <ul className={list} aria-label={t('kind.options')}>
      {content.options.map((option, index) => (
        <li key={option.id} className={entry} data-testid={`option-row-${option.id}`}>
          <strong className={css({ fontFamily: 'mono', minWidth: '6' })}>{option.id}</strong>
          <span className={css({ flex: '1', minWidth: '20', color: 'fg.muted' })}>{labelOf(option.id) || t('kind.noText')}</span>
          <Checkbox
            checked={isCorrect(option.id)}
            disabled={readOnly}
            onChange={() => onChange(toggleCorrect(content, option.id))}
            testId={`correct-${option.id}`}
          >
            {t('kind.correctNamed', { id: option.id })}
          </Checkbox>
          <Checkbox
            checked={option.keepLast}
            disabled={readOnly}
            onChange={() => onChange(toggleKeepLast(content, option.id))}
            testId={`keep-last-${option.id}`}
          >
            {t('kind.keepLast')}
          </Checkbox>
          <Button
            size="sm"
            variant="ghost"
            disabled={readOnly || index === 0}
            aria-label={t('kind.moveUp', { id: option.id })}
            onClick={() => onChange({ ...content, options: move(content.options, index, -1) })}
          >
            ↑
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={readOnly || index === content.options.length - 1}
            aria-label={t('kind.moveDown', { id: option.id })}
            onClick={() => onChange({ ...content, options: move(content.options, index, 1) })}
          >
            ↓
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={readOnly || content.options.length <= 2}
            aria-label={t('kind.removeNamed', { id: option.id })}
            onClick={() => onChange(removeChoice(content, option.id))}
          >
            ✕
          </Button>
        </li>
      ))}
    </ul>
  );
}

function TextAnswers({
  answers,
  onChange,
  readOnly,
  withCredit,
  testId,
}: {
  answers: { text: string; caseSensitive: boolean; credit?: number }[];
  onChange: (answers: { text: string; caseSensitive: boolean; credit?: number }[]) => void;
  readOnly: boolean;
  withCredit: boolean;
  testId: string;
}) {
  const { t } = useTranslation('items');
  const set = (index: number, change: Partial<{ text: string; caseSensitive: boolean; credit: number }>) =>
    onChange(answers.map((a, i) => (i === index ? { ...a, ...change } : a)));
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <ul className={list} aria-label={t('kind.acceptedAnswers')}>
        {answers.map((answer, index) => (
          <li key={index} className={entry}>
            <TextField
              label={t('kind.answerN', { n: index + 1 })}
              value={answer.text}
              readOnly={readOnly}
              maxLength={500}
              onChange={(e) => set(index, { text: e.target.value })}
              data-testid={`${testId}-text-${index}`}
            />
            <Checkbox
              checked={answer.caseSensitive}
              disabled={readOnly}
              onChange={(caseSensitive) => set(index, { caseSensitive })}
              testId={`${testId}-case-${index}`}
            >
              {t('kind.caseSensitive')}
            </Checkbox>
            {withCredit ? (
              <NumberInput
                label={t('kind.credit')}
                value={answer.credit ?? 1}
                min={0}
                max={1}
                step="0.05"
                readOnly={readOnly}
                onChange={(credit) => set(index, { credit: Math.min(1, Math.max(0.01, credit)) })}
              />
            ) : null}
            <Button
              size="sm"
              variant="ghost"
              disabled={readOnly || answers.length <= 1}
              aria-label={t('kind.removeAnswer', { n: index + 1 })}
              onClick={() => onChange(answers.filter((_, i) => i !== index))}
            >
              ✕
            </Button>
          </li>
        ))}
      </ul>
      <div>
        <Button
          size="sm"
          variant="outline"
          disabled={readOnly}
          onClick={() => onChange([...answers, { text: '', caseSensitive: false, ...(withCredit ? { credit: 1 } : {}) }])}
          data-testid={`${testId}-add`}
        >
          {t('kind.addAnswer')}
        </Button>
      </div>
    </div>
  );
}

function KindSpecific(props: KindFieldsProps) {
  const { t } = useTranslation('items');
  const { content, onChange, readOnly, labelOf } = props;
  switch (content.kind) {
    case 'singleChoice':
    case 'multipleChoice':
      return (
        <Section title={t('kind.options')}>
          <ChoiceOptions {...props} content={content} />
          <div className={row}>
            <Button size="sm" variant="outline" disabled={readOnly} onClick={() => onChange(addChoice(content))} data-testid="add-option">
              {t('kind.addOption')}
            </Button>
            <ShuffleSwitch content={content} onChange={onChange} readOnly={readOnly} />
          </div>
          {content.kind === 'multipleChoice' ? (
            <>
              <div className={row}>
                <NumberInput
                  label={t('kind.minChoices')}
                  value={content.minChoices}
                  min={0}
                  step="1"
                  readOnly={readOnly}
                  onChange={(n) => onChange({ ...content, minChoices: Math.max(0, Math.round(n)) })}
                />
                <NumberInput
                  label={t('kind.maxChoices')}
                  value={content.maxChoices}
                  min={0}
                  step="1"
                  readOnly={readOnly}
                  onChange={(n) => onChange({ ...content, maxChoices: Math.max(0, Math.round(n)) })}
                />
              </div>
              <PartialFields partial={content.partial} readOnly={readOnly} onChange={(partial) => onChange({ ...content, partial })} />
            </>
          ) : null}
        </Section>
      );
    case 'trueFalse':
      return (
        <Section title={t('kind.key')}>
          <ChoiceGroup
            title={t('kind.correctAnswer')}
            name="tf-correct"
            value={content.correct ? 'true' : 'false'}
            onChange={(value) => !readOnly && onChange({ ...content, correct: value === 'true' })}
            options={[
              { value: 'true', label: t('preview.true'), testId: 'tf-true' },
              { value: 'false', label: t('preview.false'), testId: 'tf-false' },
            ]}
          />
        </Section>
      );
    case 'numeric':
      return (
        <Section title={t('kind.key')}>
          <div className={row}>
            <NumberInput
              label={t('kind.answer')}
              value={content.answer}
              readOnly={readOnly}
              onChange={(answer) => onChange({ ...content, answer })}
              testId="numeric-answer"
            />
            <SelectField
              label={t('kind.toleranceMode')}
              value={content.tolerance.mode}
              disabled={readOnly}
              onValueChange={(value) => onChange({ ...content, tolerance: { ...content.tolerance, mode: value === 'relative' ? 'relative' : 'absolute' } })}
              options={[
                { value: 'absolute', label: t('kind.absolute') },
                { value: 'relative', label: t('kind.relative') },
              ]}
            />
            <NumberInput
              label={t('kind.tolerance')}
              value={content.tolerance.value}
              min={0}
              readOnly={readOnly}
              onChange={(value) => onChange({ ...content, tolerance: { ...content.tolerance, value: Math.max(0, value) } })}
              testId="numeric-tolerance"
            />
          </div>
        </Section>
      );
    case 'shortText':
      return (
        <Section title={t('kind.acceptedAnswers')}>
          <TextAnswers
            answers={content.answers}
            withCredit
            readOnly={readOnly}
            testId="short"
            onChange={(answers) =>
              onChange({ ...content, answers: answers.map((a) => ({ text: a.text, caseSensitive: a.caseSensitive, credit: a.credit ?? 1 })) })
            }
          />
          <NumberInput
            label={t('kind.expectedLength')}
            value={content.expectedLength}
            min={1}
            step="1"
            readOnly={readOnly}
            onChange={(n) => onChange({ ...content, expectedLength: Math.max(1, Math.round(n)) })}
          />
        </Section>
      );
    case 'fillInBlanks':
      return (
        <Section title={t('kind.gaps')}>
          {content.gaps.map((gap) => (
            <fieldset
              key={gap.id}
              className={css({ display: 'grid', gap: '2', borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '2' })}
              data-testid={`gap-${gap.id}`}
            >
              <legend className={css({ fontFamily: 'mono', px: '1' })}>{t('kind.gapNamed', { id: gap.id })}</legend>
              <TextAnswers
                answers={gap.answers}
                withCredit={false}
                readOnly={readOnly}
                testId={`gap-${gap.id}`}
                onChange={(answers) =>
                  onChange({
                    ...content,
                    gaps: content.gaps.map((g) =>
                      g.id === gap.id ? { ...g, answers: answers.map((a) => ({ text: a.text, caseSensitive: a.caseSensitive })) } : g,
                    ),
                  })
                }
              />
              <div className={row}>
                <NumberInput
                  label={t('kind.expectedLength')}
                  value={gap.expectedLength}
                  min={1}
                  step="1"
                  readOnly={readOnly}
                  onChange={(n) =>
                    onChange({ ...content, gaps: content.gaps.map((g) => (g.id === gap.id ? { ...g, expectedLength: Math.max(1, Math.round(n)) } : g)) })
                  }
                />
                <Button size="sm" variant="ghost" disabled={readOnly || content.gaps.length <= 1} onClick={() => onChange(removeGap(content, gap.id))}>
                  {t('kind.removeGap', { id: gap.id })}
                </Button>
              </div>
            </fieldset>
          ))}
          <div>
            <Button size="sm" variant="outline" disabled={readOnly} onClick={() => onChange(addGap(content))} data-testid="add-gap">
              {t('kind.addGap')}
            </Button>
          </div>
          <PartialFields partial={content.partial} readOnly={readOnly} onChange={(partial) => onChange({ ...content, partial })} />
        </Section>
      );
    case 'matching':
      return (
        <Section title={t('kind.pairs')}>
          <table className={css({ borderCollapse: 'collapse', '& th, & td': { borderWidth: '1px', borderColor: 'border', p: '2', textAlign: 'center' } })}>
            <caption className={css({ textAlign: 'start', color: 'fg.muted', fontSize: 'sm' })}>{t('kind.pairsCaption')}</caption>
            <thead>
              <tr>
                <td />
                {content.right.map((r) => (
                  <th key={r.id} scope="col">
                    {r.id}
                    <span className={css({ display: 'block', fontWeight: 'normal', fontSize: 'xs', color: 'fg.muted' })}>{labelOf(r.id)}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {content.left.map((l) => (
                <tr key={l.id}>
                  <th scope="row">
                    {l.id} <span className={css({ fontWeight: 'normal', fontSize: 'xs', color: 'fg.muted' })}>{labelOf(l.id)}</span>
                  </th>
                  {content.right.map((r) => (
                    <td key={r.id}>
                      <Checkbox
                        checked={content.pairs.some((p) => p.left === l.id && p.right === r.id)}
                        disabled={readOnly}
                        onChange={() => onChange(togglePair(content, l.id, r.id))}
                        testId={`pair-${l.id}-${r.id}`}
                      >
                        <span className={css({ srOnly: true })}>{t('kind.pairNamed', { left: l.id, right: r.id })}</span>
                      </Checkbox>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <div className={row}>
            <Button size="sm" variant="outline" disabled={readOnly} onClick={() => onChange(addChoice(content, 'left'))} data-testid="add-left">
              {t('kind.addLeft')}
            </Button>
            <Button size="sm" variant="outline" disabled={readOnly} onClick={() => onChange(addChoice(content, 'right'))} data-testid="add-right">
              {t('kind.addRight')}
            </Button>
            {(['left', 'right'] as const).map((side) => {
              const choices = content[side];
              const last = choices[choices.length - 1];
              // Each side keeps at least one choice: only the last one beyond that can go.
              return choices.length > 1 ? (
                <Button key={side} size="sm" variant="ghost" disabled={readOnly} onClick={() => onChange(removeChoice(content, last.id, side))}>
                  {t('kind.removeNamed', { id: last.id })}
                </Button>
              ) : null;
            })}
            <ShuffleSwitch content={content} onChange={onChange} readOnly={readOnly} />
          </div>
          <PartialFields partial={content.partial} readOnly={readOnly} onChange={(partial) => onChange({ ...content, partial })} />
        </Section>
      );
    case 'ordering':
      return (
        <Section title={t('kind.correctOrder')}>
          <ol className={list} aria-label={t('kind.correctOrder')}>
            {content.correctOrder.map((id, index) => (
              <li key={id} className={entry} data-testid={`order-row-${id}`}>
                <strong className={css({ fontFamily: 'mono' })}>{index + 1}.</strong>
                <span className={css({ fontFamily: 'mono' })}>{id}</span>
                <span className={css({ flex: '1', color: 'fg.muted' })}>{labelOf(id) || t('kind.noText')}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={readOnly || index === 0}
                  aria-label={t('kind.moveUp', { id })}
                  onClick={() => onChange({ ...content, correctOrder: move(content.correctOrder, index, -1) })}
                >
                  ↑
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={readOnly || index === content.correctOrder.length - 1}
                  aria-label={t('kind.moveDown', { id })}
                  onClick={() => onChange({ ...content, correctOrder: move(content.correctOrder, index, 1) })}
                >
                  ↓
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={readOnly || content.options.length <= 2}
                  aria-label={t('kind.removeNamed', { id })}
                  onClick={() => onChange(removeChoice(content, id))}
                >
                  ✕
                </Button>
              </li>
            ))}
          </ol>
          <div className={row}>
            <Button size="sm" variant="outline" disabled={readOnly} onClick={() => onChange(addChoice(content))} data-testid="add-option">
              {t('kind.addOption')}
            </Button>
            <ShuffleSwitch content={content} onChange={onChange} readOnly={readOnly} />
          </div>
        </Section>
      );
    case 'essay':
      return (
        <Section title={t('kind.essay')}>
          <Switch
            label={t('kind.hasWordLimit')}
            checked={content.wordLimit !== null}
            onChange={(on) => !readOnly && onChange({ ...content, wordLimit: on ? (content.wordLimit ?? 300) : null })}
            testId="word-limit-on"
          />
          {content.wordLimit !== null ? (
            <NumberInput
              label={t('kind.wordLimit')}
              value={content.wordLimit}
              min={1}
              step="1"
              readOnly={readOnly}
              onChange={(n) => onChange({ ...content, wordLimit: Math.max(1, Math.round(n)) })}
              testId="word-limit"
            />
          ) : null}
          <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('kind.essayNote')}</p>
        </Section>
      );
  }
}

export function KindFields(props: KindFieldsProps) {
  const { t } = useTranslation('items');
  const { content, onChange, readOnly } = props;
  const marking = content.marking;
  return (
    <div className={css({ display: 'grid', gap: '3' })} data-testid={`kind-fields-${content.kind}`}>
      <KindSpecific {...props} />
      <Section title={t('kind.marks')}>
        <div className={row}>
          <NumberInput
            label={t('kind.marksCorrect')}
            value={marking.correct}
            min={0}
            readOnly={readOnly}
            onChange={(correct) => onChange({ ...content, marking: { ...marking, correct } })}
            testId="marks-correct"
          />
          {content.kind === 'essay' ? null : (
            <NumberInput
              label={t('kind.marksWrong')}
              value={marking.wrong}
              max={0}
              readOnly={readOnly}
              onChange={(wrong) => onChange({ ...content, marking: { ...marking, wrong: Math.min(0, wrong) } })}
              testId="marks-wrong"
            />
          )}
          <NumberInput
            label={t('kind.marksUnanswered')}
            value={marking.unanswered}
            max={0}
            readOnly={readOnly}
            onChange={(unanswered) => onChange({ ...content, marking: { ...marking, unanswered: Math.min(0, unanswered) } })}
            testId="marks-unanswered"
          />
        </div>
        {/* Essays always go to the marking queue; any other kind may be set to go there too (issue 20). */}
        {content.kind === 'essay' ? null : (
          <Switch
            label={t('kind.byPerson')}
            hint={t('kind.byPersonHint')}
            checked={marking.byPerson === true}
            onChange={(byPerson) => {
              if (readOnly) return;
              const { byPerson: _previous, ...rest } = marking;
              onChange({ ...content, marking: byPerson ? { ...rest, byPerson: true } : rest });
            }}
            testId="marks-by-person"
          />
        )}
      </Section>
    </div>
  );
}
