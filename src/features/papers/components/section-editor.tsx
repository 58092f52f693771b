import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { css } from '#styled-system/css';
import type { ItemSummary } from '#machines/items/item-records.ts';
import { defaultQuery } from '#machines/paged-search.machine.ts';
import { DIFFICULTIES, type Difficulty } from '#machines/papers/paper-records.ts';
import {
  draftItemCount,
  sectionBuilderMachine,
  sectionProblems,
  type DraftItem,
  type SectionDraft,
  type SaveSectionRequest,
} from '#machines/papers/section-builder.machine.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { itemsApi, type ItemWorkspace } from '#src/features/items/index.ts';
import type { SectionBody, SectionRecord } from '../api/papers-api.ts';
import { INSTRUCTION_LANGUAGES } from './paper-form-dialog.tsx';

const row = css({
  display: 'flex',
  gap: '2',
  alignItems: 'center',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  p: '2',
  bg: 'bg.surface',
});
const handle = css({
  cursor: 'grab',
  px: '2',
  py: '1',
  borderRadius: 'sm',
  color: 'fg.muted',
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing' },
});

/** The draft of a stored section (labels of its fixed items come from the paper's pinned items). */
export function draftOfSection(section: SectionRecord, labels: ReadonlyMap<string, string>): SectionDraft {
  return {
    title: section.title,
    instructions: section.instructions,
    marksPerItem: section.marksPerItem,
    attemptAny: section.attemptAny,
    timeLimitMinutes: section.timeLimitMinutes,
    shuffleItems: section.shuffleItems,
    shuffleOptions: section.shuffleOptions,
    kind: section.rule.kind,
    items: (section.rule.items ?? []).map((id) => ({ versionId: String(id), label: labels.get(String(id)) ?? `#${id}` })),
    draws: (section.rule.draws ?? []).map((d) => ({ categoryId: String(d.categoryId), difficulty: d.difficulty, count: d.count })),
  };
}

/** The body the server takes for a draft. */
export function sectionBody(draft: SectionDraft): SectionBody {
  return {
    title: draft.title.trim(),
    instructions: draft.instructions,
    marksPerItem: draft.marksPerItem,
    attemptAny: draft.attemptAny,
    timeLimitMinutes: draft.timeLimitMinutes,
    shuffleItems: draft.shuffleItems,
    shuffleOptions: draft.shuffleOptions,
    rule:
      draft.kind === 'fixed'
        ? { kind: 'fixed', items: draft.items.map((i) => Number(i.versionId)) }
        : { kind: 'draw', draws: draft.draws.map((d) => ({ categoryId: Number(d.categoryId), difficulty: d.difficulty, count: d.count })) },
  };
}

const itemLabel = (item: Pick<ItemSummary, 'code' | 'stemText'>) => `${item.code} · ${item.stemText}`;

/** Search the bank and add approved items (the version a paper pins is the approved one). */
function BankSearch({ chosen, onAdd }: { chosen: ReadonlySet<string>; onAdd: (item: DraftItem) => void }) {
  const { t } = useTranslation('papers');
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<ItemSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      setFailed(false);
      itemsApi.search({ ...defaultQuery, keyword, pageSize: 10, orderBy: ['code asc'], filters: { status: 'Approved' } }).then(
        (page) => live && setResults(page.data),
        () => live && (setFailed(true), setResults([])),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [keyword]);
  return (
    <div className={css({ display: 'grid', gap: '2' })} data-testid="bank-search">
      <SearchInput label={t('builder.searchBank')} value={keyword} onChange={(e) => setKeyword(e.target.value)} data-testid="bank-search-input" />
      {failed ? <p role="alert">{t('builder.searchFailed')}</p> : null}
      {results === null ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('builder.searching')}</p>
      ) : results.length === 0 && !failed ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('builder.noBankMatch')}</p>
      ) : (
        <ul
          aria-label={t('builder.bankResults')}
          className={css({
            display: 'grid',
            // minmax(0, …): a long stem is cut with an ellipsis instead of pushing the Add button out of the dialog.
            gridTemplateColumns: 'minmax(0, 1fr)',
            gap: '1',
            listStyle: 'none',
            p: 0,
            m: 0,
            maxHeight: '16rem',
            overflowY: 'auto',
          })}
        >
          {results.map((item) => {
            const versionId = item.approvedVersionId === null ? null : String(item.approvedVersionId);
            const added = versionId !== null && chosen.has(versionId);
            return (
              <li key={item.itemId} className={row}>
                <span className={css({ flex: '1', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })} title={item.stemText}>
                  <span className={css({ fontFamily: 'mono' })}>{item.code}</span> · {item.stemText}
                </span>
                <Badge tone="neutral">{t(`difficulty.${item.difficulty}`)}</Badge>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={versionId === null || added}
                  onClick={() => versionId && onAdd({ versionId, label: itemLabel(item) })}
                  aria-label={added ? t('builder.addedNamed', { code: item.code }) : t('builder.addNamed', { code: item.code })}
                  data-testid={`bank-add-${item.code}`}
                >
                  {added ? t('builder.added') : t('builder.add')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/**
 * The fixed items in their order. Reordered by dragging a row, or from the keyboard: the row's
 * handle moves it with the arrow keys (Home/End to the ends); each move is announced.
 */
function FixedItems({ items, onMove, onRemove }: { items: DraftItem[]; onMove: (from: number, to: number) => void; onRemove: (versionId: string) => void }) {
  const { t } = useTranslation('papers');
  const dragged = useRef<number | null>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());
  const [focusAfterMove, setFocusAfterMove] = useState<string | null>(null);
  useEffect(() => {
    if (focusAfterMove) handles.current.get(focusAfterMove)?.focus();
  }, [focusAfterMove, items]);
  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    setFocusAfterMove(items[from].versionId);
    onMove(from, to);
  };
  const onKey = (index: number) => (event: KeyboardEvent<HTMLButtonElement>) => {
    const target = { ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: items.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    move(index, target);
  };
  if (items.length === 0) return <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('builder.noItems')}</p>;
  return (
    <ol
      aria-label={t('builder.itemsInOrder')}
      className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '1', listStyle: 'none', p: 0, m: 0 })}
      data-testid="fixed-items"
    >
      {items.map((item, index) => (
        <li
          key={item.versionId}
          className={row}
          draggable
          onDragStart={(event: DragEvent) => {
            dragged.current = index;
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', item.versionId);
          }}
          onDragOver={(event) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
          }}
          onDrop={(event) => {
            event.preventDefault();
            if (dragged.current !== null) move(dragged.current, index);
            dragged.current = null;
          }}
          data-testid={`fixed-item-${index + 1}`}
        >
          <button
            type="button"
            className={handle}
            ref={(node) => {
              if (node) handles.current.set(item.versionId, node);
              else handles.current.delete(item.versionId);
            }}
            onKeyDown={onKey(index)}
            aria-label={t('builder.moveHandle', { n: index + 1, label: item.label })}
            aria-describedby="reorder-help"
            data-testid={`move-${index + 1}`}
          >
            ⠿
          </button>
          <span className={css({ fontVariantNumeric: 'tabular-nums', color: 'fg.muted' })}>{index + 1}.</span>
          <span className={css({ flex: '1', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })} title={item.label}>
            {item.label}
          </span>
          <Button size="sm" variant="ghost" onClick={() => onRemove(item.versionId)} aria-label={t('builder.removeNamed', { n: index + 1 })}>
            {t('builder.remove')}
          </Button>
        </li>
      ))}
    </ol>
  );
}

/** Draw N approved items per category × difficulty: the rules of a draw section. */
function DrawRules({
  draft,
  workspace,
  onAdd,
  onCount,
  onRemove,
}: {
  draft: SectionDraft;
  workspace: ItemWorkspace;
  onAdd: (categoryId: string, difficulty: Difficulty) => void;
  onCount: (index: number, count: number) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('papers');
  const [categoryId, setCategoryId] = useState('');
  const [difficulty, setDifficulty] = useState<Difficulty | ''>('');
  const categoryName = (id: string) => workspace.categories.find((c) => String(c.categoryId) === id)?.name ?? `#${id}`;
  const taken = draft.draws.some((d) => d.categoryId === categoryId && d.difficulty === difficulty);
  return (
    <div className={css({ display: 'grid', gap: '3' })} data-testid="draw-rules">
      {draft.draws.length === 0 ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('builder.noDraws')}</p>
      ) : (
        <ul aria-label={t('builder.drawRules')} className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0, m: 0 })}>
          {draft.draws.map((draw, index) => (
            <li key={`${draw.categoryId}|${draw.difficulty}`} className={row}>
              <span className={css({ flex: '1' })}>
                {categoryName(draw.categoryId)} · {t(`difficulty.${draw.difficulty}`)}
              </span>
              <TextField
                label={t('builder.drawCount')}
                inputMode="numeric"
                value={String(draw.count)}
                onChange={(e) => onCount(index, e.target.value === '' ? 0 : Number(e.target.value))}
                className={css({ width: '7rem' })}
                data-testid={`draw-count-${index + 1}`}
              />
              <Button size="sm" variant="ghost" onClick={() => onRemove(index)} aria-label={t('builder.removeDraw', { n: index + 1 })}>
                {t('builder.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className={css({ display: 'flex', gap: '2', alignItems: 'end', flexWrap: 'wrap' })}>
        <SelectField
          label={t('field.category')}
          value={categoryId}
          placeholder={t('builder.chooseCategory')}
          onValueChange={setCategoryId}
          options={workspace.categoryOptions}
          testId="draw-category"
        />
        <SelectField
          label={t('field.difficulty')}
          value={difficulty}
          placeholder={t('builder.chooseDifficulty')}
          onValueChange={(value) => setDifficulty(value as Difficulty | '')}
          options={DIFFICULTIES.map((d) => ({ value: d, label: t(`difficulty.${d}`) }))}
          testId="draw-difficulty"
        />
        <Button
          variant="outline"
          disabled={!categoryId || !difficulty || taken}
          onClick={() => difficulty && onAdd(categoryId, difficulty)}
          data-testid="draw-add"
        >
          {t('builder.addDraw')}
        </Button>
      </div>
      {taken ? <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('builder.drawTaken')}</p> : null}
    </div>
  );
}

/**
 * A section of a Draft paper, new or stored, edited in a dialog on the section builder machine
 * (machines/papers/section-builder.machine.ts): fields, instructions per language, the rule, the
 * save, and a refused save shown for what it is (stale, locked, invalid).
 */
export function SectionEditor({
  section,
  labels,
  workspace,
  save,
  onClose,
  onSaved,
  onLocked,
}: {
  section: SectionRecord | null;
  labels: ReadonlyMap<string, string>;
  workspace: ItemWorkspace;
  save: (request: SaveSectionRequest) => Promise<{ sectionId: number; version: number }>;
  onClose: () => void;
  onSaved: () => void;
  onLocked: () => void;
}) {
  const { t } = useTranslation('papers');
  const machine = useMemo(() => sectionBuilderMachine.provide({ actors: { saveSection: fromPromise(({ input }) => save(input)) } }), [save]);
  const [snapshot, send] = useMachine(machine, {
    input: section ? { sectionId: section.sectionId, version: section.version, draft: draftOfSection(section, labels) } : {},
  });
  const { draft, failure, announcement } = snapshot.context;
  const [tried, setTried] = useState(false);
  const problems = sectionProblems(draft);
  const saving = snapshot.matches('saving');
  const readOnly = snapshot.matches('readOnly');
  const wasSaving = useRef(false);
  useEffect(() => {
    if (wasSaving.current && snapshot.matches('editing') && !snapshot.context.failure && !snapshot.context.dirty) onSaved();
    if (wasSaving.current && readOnly) onLocked();
    wasSaving.current = saving;
  }, [snapshot, saving, readOnly, onSaved, onLocked]);

  const count = draftItemCount(draft);
  const languages = INSTRUCTION_LANGUAGES.filter((l) => workspace.languages.includes(l));
  const problemText = (problem: string) => t(`builder.problem.${problem}`, { count, attemptAny: draft.attemptAny ?? 0 });
  const announced = announcement
    ? t(`builder.announce.${announcement.kind}`, { label: announcement.label, position: announcement.position, of: announcement.of })
    : '';
  const chosen = useMemo(() => new Set(draft.items.map((i) => i.versionId)), [draft.items]);

  return (
    <Dialog
      title={section ? t('builder.editTitle', { title: section.title }) : t('builder.newTitle')}
      onClose={onClose}
      busy={saving}
      size="lg"
      testId="section-editor"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        send({ type: 'save' });
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={saving}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={readOnly} data-testid="section-save">
            {t('builder.saveSection')}
          </Button>
        </>
      }
    >
      <fieldset disabled={readOnly} className={css({ display: 'grid', gap: '4', border: 'none', p: 0, m: 0 })}>
        <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '2fr 1fr' } })}>
          <TextField
            label={t('builder.sectionTitle')}
            value={draft.title}
            onChange={(e) => send({ type: 'field.set', field: 'title', value: e.target.value })}
            required
            error={tried && problems.includes('titleMissing') ? problemText('titleMissing') : undefined}
            data-testid="section-title"
          />
          <TextField
            label={t('builder.marksPerItem')}
            inputMode="decimal"
            value={Number.isFinite(draft.marksPerItem) ? String(draft.marksPerItem) : ''}
            onChange={(e) => send({ type: 'field.set', field: 'marksPerItem', value: e.target.value })}
            required
            error={tried && problems.includes('marksInvalid') ? problemText('marksInvalid') : undefined}
            data-testid="section-marks"
          />
          <TextField
            label={t('builder.attemptAny')}
            hint={t('builder.attemptAnyHint', { count })}
            inputMode="numeric"
            value={draft.attemptAny === null ? '' : String(draft.attemptAny)}
            onChange={(e) => send({ type: 'field.set', field: 'attemptAny', value: e.target.value })}
            error={
              tried && (problems.includes('attemptAnyInvalid') || problems.includes('attemptAnyTooLarge'))
                ? problemText(problems.includes('attemptAnyInvalid') ? 'attemptAnyInvalid' : 'attemptAnyTooLarge')
                : undefined
            }
            data-testid="section-attempt-any"
          />
          <TextField
            label={t('builder.timeLimit')}
            hint={t('builder.timeLimitHint')}
            inputMode="numeric"
            value={draft.timeLimitMinutes === null ? '' : String(draft.timeLimitMinutes)}
            onChange={(e) => send({ type: 'field.set', field: 'timeLimitMinutes', value: e.target.value })}
            error={tried && problems.includes('timeLimitInvalid') ? problemText('timeLimitInvalid') : undefined}
            data-testid="section-time-limit"
          />
        </div>
        <div className={css({ display: 'flex', gap: '6', flexWrap: 'wrap' })}>
          <Switch
            label={t('builder.shuffleItems')}
            checked={draft.shuffleItems}
            onChange={(on) => send({ type: 'field.set', field: 'shuffleItems', value: on })}
            testId="section-shuffle-items"
          />
          <Switch
            label={t('builder.shuffleOptions')}
            checked={draft.shuffleOptions}
            onChange={(on) => send({ type: 'field.set', field: 'shuffleOptions', value: on })}
            testId="section-shuffle-options"
          />
        </div>
        <details>
          <summary className={css({ cursor: 'pointer', fontWeight: 'semibold' })}>{t('builder.instructions')}</summary>
          <div className={css({ display: 'grid', gap: '3', pt: '2' })}>
            {languages.map((language) => (
              <TextAreaField
                key={language}
                label={t('field.instructionsIn', { language: t(`language.${language}`) })}
                lang={language}
                rows={2}
                value={draft.instructions[language] ?? ''}
                onChange={(e) => send({ type: 'instructions.set', language, text: e.target.value })}
                data-testid={`section-instructions-${language}`}
              />
            ))}
          </div>
        </details>
        <ChoiceGroup
          title={t('builder.rule')}
          name="section-rule"
          value={draft.kind}
          onChange={(kind) => send({ type: 'rule.kind', kind })}
          options={[
            { value: 'fixed', label: t('builder.ruleFixed'), testId: 'rule-fixed' },
            { value: 'draw', label: t('builder.ruleDraw'), testId: 'rule-draw' },
          ]}
        />
        {draft.kind === 'fixed' ? (
          <div className={css({ display: 'grid', gap: '3' })}>
            <p id="reorder-help" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              {t('builder.reorderHelp')}
            </p>
            <FixedItems
              items={draft.items}
              onMove={(from, to) => send({ type: 'items.move', from, to })}
              onRemove={(versionId) => send({ type: 'items.remove', versionId })}
            />
            <BankSearch chosen={chosen} onAdd={(item) => send({ type: 'items.add', item })} />
          </div>
        ) : (
          <DrawRules
            draft={draft}
            workspace={workspace}
            onAdd={(categoryId, difficulty) => send({ type: 'draws.add', draw: { categoryId, difficulty, count: 1 } })}
            onCount={(index, n) => send({ type: 'draws.count', index, count: n })}
            onRemove={(index) => send({ type: 'draws.remove', index })}
          />
        )}
      </fieldset>
      <p className={css({ fontSize: 'sm' })} data-testid="section-summary">
        {t('builder.summary', { count, marks: Math.round(Math.min(draft.attemptAny ?? count, count) * draft.marksPerItem * 100) / 100 || 0 })}
      </p>
      <div aria-live="polite" className={css({ srOnly: true })} data-testid="reorder-announcement">
        {announced}
      </div>
      {tried && problems.length > 0 ? (
        <ul role="alert" className={css({ color: 'error.dark', fontSize: 'sm', ps: '4', listStyle: 'disc' })} data-testid="section-problems">
          {problems.map((p) => (
            <li key={p}>{problemText(p)}</li>
          ))}
        </ul>
      ) : null}
      {failure ? (
        <div role="alert" className={css({ color: 'error.dark' })} data-testid={`section-failure-${failure.kind}`}>
          <p className={css({ fontWeight: 'semibold' })}>{t(`builder.failure.${failure.kind}`)}</p>
          {failure.messages.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      ) : null}
    </Dialog>
  );
}
