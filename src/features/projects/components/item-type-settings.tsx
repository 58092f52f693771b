import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { settingsByKind, type ItemTypeSettings } from '#machines/exams/item-types.ts';
import { ITEM_LIMITS, type ItemKind } from '#machines/items/item-schema.ts';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';

type Errors = Record<string, string[]>;
type T = (key: string, options?: Record<string, unknown>) => string;

/** An item type's settings as the form holds them (numbers as typed). */
export interface SettingsDraft {
  shuffle: boolean;
  caseSensitive: boolean;
  wordLimit: string;
  maxChoices: string;
  toleranceMode: 'absolute' | 'relative';
  toleranceValue: string;
  partial: boolean;
  perCorrect: string;
  perWrong: string;
  wrongCancels: boolean;
}

export function settingsDraftOf(settings: ItemTypeSettings): SettingsDraft {
  return {
    shuffle: settings.shuffle ?? false,
    caseSensitive: settings.caseSensitive ?? false,
    wordLimit: settings.wordLimit == null ? '' : String(settings.wordLimit),
    maxChoices: String(settings.maxChoices ?? 0),
    toleranceMode: settings.tolerance?.mode ?? 'absolute',
    toleranceValue: String(settings.tolerance?.value ?? 0),
    partial: Boolean(settings.partial),
    perCorrect: String(settings.partial?.perCorrect ?? 1),
    perWrong: String(settings.partial?.perWrong ?? 0),
    wrongCancels: settings.partial?.wrongCancels ?? false,
  };
}

/** The settings the kind takes (settingsByKind), from the draft; call after `checkSettingsDraft` found nothing. */
export function settingsFromDraft(kind: ItemKind, draft: SettingsDraft): ItemTypeSettings {
  const out: ItemTypeSettings = {};
  for (const key of settingsByKind[kind]) {
    if (key === 'shuffle') out.shuffle = draft.shuffle;
    if (key === 'caseSensitive') out.caseSensitive = draft.caseSensitive;
    if (key === 'wordLimit') out.wordLimit = draft.wordLimit.trim() === '' ? null : Number(draft.wordLimit);
    if (key === 'maxChoices') out.maxChoices = Number(draft.maxChoices);
    if (key === 'tolerance') out.tolerance = { mode: draft.toleranceMode, value: Number(draft.toleranceValue) };
    if (key === 'partial')
      out.partial = draft.partial ? { perCorrect: Number(draft.perCorrect), perWrong: Number(draft.perWrong), wrongCancels: draft.wrongCancels } : null;
  }
  return out;
}

const whole = (text: string) => /^\d+$/.test(text.trim());
const number = (text: string) => text.trim() !== '' && Number.isFinite(Number(text));

/** What the form can say about the settings before sending (the server checks the same: checkItemType). */
export function checkSettingsDraft(kind: ItemKind, draft: SettingsDraft, correct: number, t: T): Errors {
  const errors: Errors = {};
  const takes = settingsByKind[kind];
  if (takes.includes('wordLimit') && draft.wordLimit.trim() !== '') {
    if (!whole(draft.wordLimit) || Number(draft.wordLimit) < 1 || Number(draft.wordLimit) > ITEM_LIMITS.wordLimit)
      errors['settings.wordLimit'] = [t('itemTypes.settings.wordLimitRange', { max: ITEM_LIMITS.wordLimit })];
  }
  if (takes.includes('maxChoices') && (!whole(draft.maxChoices) || Number(draft.maxChoices) > ITEM_LIMITS.choices))
    errors['settings.maxChoices'] = [t('itemTypes.settings.maxChoicesRange', { max: ITEM_LIMITS.choices })];
  if (takes.includes('tolerance') && (!number(draft.toleranceValue) || Number(draft.toleranceValue) < 0))
    errors['settings.tolerance'] = [t('itemTypes.settings.toleranceRange')];
  if (takes.includes('partial') && draft.partial) {
    if (!number(draft.perCorrect) || Number(draft.perCorrect) < 0 || (Number.isFinite(correct) && Number(draft.perCorrect) > correct))
      errors['settings.partial.perCorrect'] = [t('itemTypes.settings.perCorrectRange')];
    if (!number(draft.perWrong) || Number(draft.perWrong) > 0 || Number(draft.perWrong) < -ITEM_LIMITS.marks)
      errors['settings.partial.perWrong'] = [t('itemTypes.settings.perWrongRange', { max: ITEM_LIMITS.marks })];
  }
  return errors;
}

/** The settings fields the kind takes (none for true or false). */
export function ItemTypeSettingsFields({
  kind,
  name,
  draft,
  onChange,
  errors,
  disabled,
  testId,
}: {
  kind: ItemKind;
  name: string;
  draft: SettingsDraft;
  onChange: (patch: Partial<SettingsDraft>) => void;
  errors: Errors | null;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation('projects');
  const takes = settingsByKind[kind];
  if (takes.length === 0) return null;
  return (
    <fieldset
      className={css({ gridColumn: '1 / -1', display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'end', borderWidth: 0, p: 0, m: 0 })}
      data-testid={testId}
    >
      <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '1' })}>{t('itemTypes.settings.legend', { name })}</legend>
      {takes.includes('shuffle') ? (
        <Checkbox checked={draft.shuffle} onChange={(shuffle) => onChange({ shuffle })} disabled={disabled}>
          {t('itemTypes.settings.shuffle')}
        </Checkbox>
      ) : null}
      {takes.includes('caseSensitive') ? (
        <Checkbox checked={draft.caseSensitive} onChange={(caseSensitive) => onChange({ caseSensitive })} disabled={disabled}>
          {t('itemTypes.settings.caseSensitive')}
        </Checkbox>
      ) : null}
      {takes.includes('wordLimit') ? (
        <TextField
          label={t('itemTypes.settings.wordLimit')}
          value={draft.wordLimit}
          onChange={(e) => onChange({ wordLimit: e.target.value })}
          inputMode="numeric"
          error={fieldError(errors, 'settings.wordLimit')}
          disabled={disabled}
        />
      ) : null}
      {takes.includes('maxChoices') ? (
        <TextField
          label={t('itemTypes.settings.maxChoices')}
          value={draft.maxChoices}
          onChange={(e) => onChange({ maxChoices: e.target.value })}
          inputMode="numeric"
          error={fieldError(errors, 'settings.maxChoices')}
          disabled={disabled}
        />
      ) : null}
      {takes.includes('tolerance') ? (
        <>
          <SelectField
            label={t('itemTypes.settings.toleranceMode')}
            value={draft.toleranceMode}
            onValueChange={(value) => onChange({ toleranceMode: value as SettingsDraft['toleranceMode'] })}
            options={[
              { value: 'absolute', label: t('itemTypes.settings.toleranceAbsolute') },
              { value: 'relative', label: t('itemTypes.settings.toleranceRelative') },
            ]}
            disabled={disabled}
          />
          <TextField
            label={t('itemTypes.settings.toleranceValue')}
            value={draft.toleranceValue}
            onChange={(e) => onChange({ toleranceValue: e.target.value })}
            inputMode="decimal"
            error={fieldError(errors, 'settings.tolerance')}
            disabled={disabled}
          />
        </>
      ) : null}
      {takes.includes('partial') ? (
        <>
          <Checkbox checked={draft.partial} onChange={(partial) => onChange({ partial })} disabled={disabled}>
            {t('itemTypes.settings.partial')}
          </Checkbox>
          {draft.partial ? (
            <>
              <TextField
                label={t('itemTypes.settings.perCorrect')}
                value={draft.perCorrect}
                onChange={(e) => onChange({ perCorrect: e.target.value })}
                inputMode="decimal"
                error={fieldError(errors, 'settings.partial.perCorrect')}
                disabled={disabled}
              />
              <TextField
                label={t('itemTypes.settings.perWrong')}
                value={draft.perWrong}
                onChange={(e) => onChange({ perWrong: e.target.value })}
                inputMode="decimal"
                error={fieldError(errors, 'settings.partial.perWrong')}
                disabled={disabled}
              />
              <Checkbox checked={draft.wrongCancels} onChange={(wrongCancels) => onChange({ wrongCancels })} disabled={disabled}>
                {t('itemTypes.settings.wrongCancels')}
              </Checkbox>
            </>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
