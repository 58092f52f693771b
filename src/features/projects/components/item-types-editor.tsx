import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { baseItemTypes, checkItemType } from '#machines/exams/item-types.ts';
import { ITEM_KINDS, ITEM_LIMITS, type ItemKind } from '#machines/items/item-schema.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { projectsApi, type ItemType } from '../api/projects-api.ts';
import { checkSettingsDraft, ItemTypeSettingsFields, settingsDraftOf, settingsFromDraft } from './item-type-settings.tsx';
import { isStaleEdit, StaleEditNotice, type StaleEdit } from './stale-edit.tsx';

type Errors = Record<string, string[]>;
interface MarkingDraft {
  name: string;
  correct: string;
  wrong: string;
}

/**
 * The rules of an item type's name and default marks (EXAMS.md §2: +4 / −1 negative marking,
 * essays never "wrong"), the same the server applies (machines/exams/item-types.ts).
 */
export function checkItemTypeDraft(kind: ItemKind, draft: MarkingDraft, t: (key: string, options?: Record<string, unknown>) => string): Errors {
  const errors: Errors = {};
  if (!draft.name.trim()) errors.name = [t('itemTypes.nameRequired')];
  const correct = Number(draft.correct);
  const wrong = Number(draft.wrong);
  if (draft.correct.trim() === '' || !Number.isFinite(correct) || correct <= 0 || correct > ITEM_LIMITS.marks)
    errors.correct = [t('itemTypes.correctRange', { max: ITEM_LIMITS.marks })];
  if (draft.wrong.trim() === '' || !Number.isFinite(wrong) || wrong > 0 || wrong < -ITEM_LIMITS.marks)
    errors.wrong = [t('itemTypes.wrongRange', { max: ITEM_LIMITS.marks })];
  if (!errors.correct && !errors.wrong && checkItemType(kind, {}, { correct, wrong, unanswered: 0 })['marking.wrong'])
    errors.wrong = [t('itemTypes.essayWrong')];
  return errors;
}

/** Server-side field errors (`marking.correct`) on the form's fields (`correct`). */
const serverErrors = (error: unknown): Errors | null => {
  const errors = (error as { errors?: Errors } | null)?.errors;
  if (!errors) return null;
  return Object.fromEntries(Object.entries(errors).map(([key, value]) => [key.replace(/^marking\./, ''), value]));
};

const row = css({
  display: 'grid',
  gap: '2',
  p: '3',
  borderBottomWidth: '1px',
  borderColor: 'border',
  gridTemplateColumns: { base: '1fr', md: '2fr 1fr 1fr auto auto' },
  alignItems: 'end',
});

/** One item type, edited in place and saved on the version it was loaded at. */
function ItemTypeRow({ projectId, type, canEdit, onChanged }: { projectId: number; type: ItemType; canEdit: boolean; onChanged: () => Promise<unknown> }) {
  const { t } = useTranslation('projects');
  const [draft, setDraft] = useState<MarkingDraft>({ name: type.name, correct: String(type.marking.correct), wrong: String(type.marking.wrong) });
  const [active, setActive] = useState(type.isActive);
  const [settings, setSettings] = useState(() => settingsDraftOf(type.settings));
  const [errors, setErrors] = useState<Errors | null>(null);
  const [stale, setStale] = useState<StaleEdit | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);

  const save = async (version: number) => {
    const local = { ...checkItemTypeDraft(type.kind, draft, t), ...checkSettingsDraft(type.kind, settings, Number(draft.correct), t) };
    setErrors(Object.keys(local).length ? local : null);
    if (Object.keys(local).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const saved = await projectsApi.editItemType(projectId, type.itemTypeId, {
        name: draft.name.trim(),
        settings: settingsFromDraft(type.kind, settings),
        marking: { correct: Number(draft.correct), wrong: Number(draft.wrong), unanswered: type.marking.unanswered ?? 0 },
        isActive: active,
        version,
      });
      storeRecord('itemType', saved);
      setStale(null);
      void notify.success(t('itemTypes.saved', { name: draft.name.trim() }));
      await onChanged();
    } catch (error) {
      failRecord('itemType');
      if (isStaleEdit(error)) setStale(error);
      else {
        setErrors(serverErrors(error));
        setFailure(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const set = (field: keyof MarkingDraft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(type.version);
  };
  return (
    <li>
      <form onSubmit={submit} className={row} data-testid={`item-type-${type.itemTypeId}`} aria-label={type.name} noValidate>
        {stale ? (
          <div className={css({ gridColumn: '1 / -1' })}>
            <StaleEditNotice conflict={stale} busy={busy} onLoadLatest={() => void onChanged()} onOverwrite={() => void save(stale.currentVersion)} />
          </div>
        ) : null}
        <TextField
          label={t('itemTypes.name', { kind: t(`kind.${type.kind}`) })}
          value={draft.name}
          onChange={set('name')}
          maxLength={200}
          required
          error={fieldError(errors, 'name')}
          disabled={!canEdit}
        />
        <TextField
          label={t('itemTypes.correct')}
          value={draft.correct}
          onChange={set('correct')}
          inputMode="decimal"
          required
          error={fieldError(errors, 'correct')}
          disabled={!canEdit}
        />
        <TextField
          label={t('itemTypes.wrong')}
          value={draft.wrong}
          onChange={set('wrong')}
          inputMode="decimal"
          required
          error={fieldError(errors, 'wrong')}
          disabled={!canEdit}
        />
        <Checkbox checked={active} onChange={setActive} disabled={!canEdit} testId={`item-type-active-${type.itemTypeId}`}>
          {t('itemTypes.active')}
        </Checkbox>
        {canEdit ? (
          <Button type="submit" variant="outline" loading={busy} aria-label={t('itemTypes.saveNamed', { name: type.name })}>
            {t('itemTypes.save')}
          </Button>
        ) : (
          <Badge tone={type.isActive ? 'success' : 'neutral'}>{type.isActive ? t('itemTypes.active') : t('itemTypes.retired')}</Badge>
        )}
        <ItemTypeSettingsFields
          kind={type.kind}
          name={type.name}
          draft={settings}
          onChange={(patch) => setSettings((s) => ({ ...s, ...patch }))}
          errors={errors}
          disabled={!canEdit}
          testId={`item-type-settings-${type.itemTypeId}`}
        />
        {failureText && !errors ? (
          <p role="alert" className={css({ gridColumn: '1 / -1', color: 'error.main', fontSize: 'sm' })}>
            {failureText}
          </p>
        ) : null}
      </form>
    </li>
  );
}

/** Adds an item type: one of the nine base kinds, starting from its usual settings and marks. */
function NewItemType({ projectId, onAdded }: { projectId: number; onAdded: () => Promise<unknown> }) {
  const { t } = useTranslation('projects');
  const [kind, setKind] = useState<ItemKind>('singleChoice');
  const [draft, setDraft] = useState<MarkingDraft>({ name: '', correct: '1', wrong: '0' });
  const [errors, setErrors] = useState<Errors | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);

  const chooseKind = (next: ItemKind) => {
    setKind(next);
    const base = baseItemTypes.find((b) => b.kind === next);
    if (base) setDraft((d) => ({ ...d, correct: String(base.marking.correct), wrong: String(base.marking.wrong) }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = checkItemTypeDraft(kind, draft, t);
    setErrors(Object.keys(local).length ? local : null);
    if (Object.keys(local).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const base = baseItemTypes.find((b) => b.kind === kind);
      const added = await projectsApi.createItemType(projectId, {
        name: draft.name.trim(),
        kind,
        settings: base?.settings ?? {},
        marking: { correct: Number(draft.correct), wrong: Number(draft.wrong), unanswered: 0 },
      });
      storeRecord('itemType', added);
      void notify.success(t('itemTypes.added', { name: draft.name.trim() }));
      setDraft({ name: '', correct: draft.correct, wrong: draft.wrong });
      await onAdded();
    } catch (error) {
      failRecord('itemType');
      setErrors(serverErrors(error));
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const set = (field: keyof MarkingDraft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  return (
    <form onSubmit={(e) => void submit(e)} className={row} data-testid="new-item-type" aria-label={t('itemTypes.addTitle')} noValidate>
      <SelectField
        label={t('itemTypes.kind')}
        value={kind}
        onValueChange={(value) => chooseKind(value as ItemKind)}
        options={ITEM_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
      />
      <TextField label={t('itemTypes.newName')} value={draft.name} onChange={set('name')} maxLength={200} required error={fieldError(errors, 'name')} />
      <TextField
        label={t('itemTypes.correct')}
        value={draft.correct}
        onChange={set('correct')}
        inputMode="decimal"
        required
        error={fieldError(errors, 'correct')}
      />
      <TextField label={t('itemTypes.wrong')} value={draft.wrong} onChange={set('wrong')} inputMode="decimal" required error={fieldError(errors, 'wrong')} />
      <Button type="submit" loading={busy}>
        {t('itemTypes.add')}
      </Button>
      {failureText && !errors ? (
        <p role="alert" className={css({ gridColumn: '1 / -1', color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </form>
  );
}

/** The project's item types: each editable in place, and a new one added from a base kind. */
export function ItemTypesEditor({
  projectId,
  itemTypes,
  canEdit,
  onChanged,
}: {
  projectId: number;
  itemTypes: ItemType[];
  canEdit: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation('projects');
  return (
    <div data-testid="item-types-editor">
      {itemTypes.length === 0 ? <p className={css({ py: '2', color: 'fg.muted' })}>{t('itemTypes.none')}</p> : null}
      <ul className={css({ listStyle: 'none', p: 0, m: 0 })}>
        {itemTypes.map((type) => (
          // A new version (theirs or ours) starts the row again from the stored values.
          <ItemTypeRow key={`${type.itemTypeId}-${type.version}`} projectId={projectId} type={type} canEdit={canEdit} onChanged={onChanged} />
        ))}
      </ul>
      {canEdit ? <NewItemType projectId={projectId} onAdded={onChanged} /> : null}
    </div>
  );
}
