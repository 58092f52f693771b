import { useEffect, useRef, useState, type FormEvent, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { checkFlowDefinition, FLOW_FIXED_STATES, FLOW_LIMITS, type FlowDefinition, type FlowStage } from '#machines/exams/review-flow.machine.ts';
import { examPermissionNames, type ExamPermission } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { projectsApi, type Flow, type FlowPreview } from '../api/projects-api.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { isStaleEdit, StaleEditNotice, type StaleEdit } from './stale-edit.tsx';

type Errors = Record<string, string[]>;
interface FlowDraft {
  name: string;
  recordKind: 'item' | 'paper';
  definition: FlowDefinition;
}

/** A stage id for a new stage: from its name, unique in the flow, never a fixed state (STAGE_ID_PATTERN). */
export function stageIdFor(name: string, taken: readonly string[]): string {
  const base = `s${
    name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'stage'
  }`;
  const reserved = new Set([...taken, ...FLOW_FIXED_STATES]);
  let id = base;
  for (let n = 2; reserved.has(id); n += 1) id = `${base}-${n}`;
  return id;
}

/**
 * What the form can say per field: every stage needs a name, at most ten stages, and whatever
 * else `checkFlowDefinition` (the compiler's own check, machines/exams) refuses.
 */
export function checkFlowDraft(draft: FlowDraft, t: (key: string, options?: Record<string, unknown>) => string): Errors {
  const errors: Errors = {};
  if (!draft.name.trim()) errors.name = [t('flows.nameRequired')];
  draft.definition.stages.forEach((stage, index) => {
    if (!stage.name.trim()) errors[`stage.${index}`] = [t('flows.stageNameRequired')];
  });
  if (draft.definition.stages.length === 0) errors.stages = [t('flows.stagesRequired')];
  if (draft.definition.stages.length > FLOW_LIMITS.stages) errors.stages = [t('flows.tooManyStages', { max: FLOW_LIMITS.stages })];
  if (!Object.keys(errors).length) {
    const issues = checkFlowDefinition(draft.definition);
    if (issues.length) errors.stages = issues;
  }
  return errors;
}

const permissionOptions = (t: (key: string) => string) => examPermissionNames.map((name) => ({ value: name, label: t(`permission.${name}`) }));
const stageRow = css({ display: 'grid', gap: '2', gridTemplateColumns: { base: '1fr', md: '2fr 2fr auto' }, alignItems: 'end' });

/** One flow's form (an existing flow, or a new one when `flow` is absent). */
function FlowForm({ projectId, flow, onDone }: { projectId: number; flow?: Flow; onDone: () => Promise<unknown> }) {
  const { t } = useTranslation('projects');
  const [draft, setDraftState] = useState<FlowDraft>(() =>
    flow
      ? { name: flow.name, recordKind: flow.recordKind, definition: structuredClone(flow.definition) }
      : {
          name: '',
          recordKind: 'item',
          definition: {
            stages: [{ id: 'review', name: t('flows.defaultStage'), permission: 'ItemReviewer' }],
            submitPermission: 'ItemAuthor',
            retirePermission: 'ProjectAdmin',
          },
        },
  );
  const [errors, setErrors] = useState<Errors | null>(null);
  const [stale, setStale] = useState<StaleEdit | null>(null);
  // What saving would do to the records in removed stages, shown before saving; any change to the draft drops it.
  const [preview, setPreview] = useState<(FlowPreview & { saveVersion?: number }) | null>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (preview) previewRef.current?.focus();
  }, [preview]);
  const setDraft = (change: SetStateAction<FlowDraft>) => {
    setPreview(null);
    setDraftState(change);
  };
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);
  const stages = draft.definition.stages;
  const names = Object.fromEntries([...(flow?.definition.stages ?? []), ...stages].map((s) => [s.id, s.name]));

  const setDefinition = (change: (definition: FlowDefinition) => FlowDefinition) => setDraft((d) => ({ ...d, definition: change(d.definition) }));
  const setStage = (index: number, patch: Partial<FlowStage>) =>
    setDefinition((d) => ({ ...d, stages: d.stages.map((s, i) => (i === index ? { ...s, ...patch } : s)) }));
  const moveStage = (index: number, by: -1 | 1) =>
    setDefinition((d) => {
      const next = [...d.stages];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return { ...d, stages: next };
    });

  const save = async (version?: number, confirmed = false) => {
    const local = checkFlowDraft(draft, t);
    setErrors(Object.keys(local).length ? local : null);
    if (Object.keys(local).length) return;
    setBusy(true);
    setFailure(null);
    const body = { name: draft.name.trim(), definition: { ...draft.definition, stages: stages.map((s) => ({ ...s, name: s.name.trim() })) } };
    try {
      const kept = new Set(body.definition.stages.map((s) => s.id));
      if (flow && !confirmed && flow.definition.stages.some((s) => !kept.has(s.id))) {
        // A stage goes: say first how many records stand in it and where they will go (0200).
        const answer = await projectsApi.previewFlow(projectId, flow.flowId, body.definition);
        setPreview({ ...answer, saveVersion: version });
        return;
      }
      setPreview(null);
      if (flow) {
        const saved = await projectsApi.editFlow(projectId, flow.flowId, { ...body, version: version ?? flow.version });
        if (saved) {
          const { stageMoves: _moves, ...record } = saved;
          storeRecord('flow', record);
        }
        // Records in a removed stage moved back (0092): say where, the form restarts from the saved flow.
        const moves = saved.stageMoves.map((m) => `${names[m.from] ?? m.from} → ${names[m.to] ?? m.to}`).join(', ');
        void notify.success(moves ? t('flows.savedWithMoves', { name: saved.name, moves }) : t('flows.saved', { name: saved.name }));
      } else {
        storeRecord('flow', await projectsApi.createFlow(projectId, { ...body, recordKind: draft.recordKind }));
        void notify.success(t('flows.added', { name: body.name }));
      }
      setStale(null);
      await onDone();
    } catch (error) {
      failRecord('flow');
      if (isStaleEdit(error)) setStale(error);
      else {
        const fieldErrors = (error as { errors?: Errors } | null)?.errors ?? null;
        setErrors(fieldErrors ? { stages: Object.values(fieldErrors).flat() } : null);
        setFailure(error);
      }
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  const testId = flow ? `flow-${flow.flowId}` : 'new-flow';
  return (
    <form
      onSubmit={submit}
      className={css({ display: 'grid', gap: '3', p: '3', borderWidth: '1px', borderColor: 'border', borderRadius: 'md' })}
      data-testid={testId}
      aria-label={flow ? flow.name : t('flows.addTitle')}
      noValidate
    >
      {stale && flow ? (
        <StaleEditNotice conflict={stale} busy={busy} onLoadLatest={() => void onDone()} onOverwrite={() => void save(stale.currentVersion)} />
      ) : null}
      <div className={css({ display: 'grid', gap: '2', gridTemplateColumns: { base: '1fr', md: '2fr 1fr' } })}>
        <TextField
          label={t('flows.name')}
          value={draft.name}
          onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
          maxLength={200}
          required
          error={fieldError(errors, 'name')}
        />
        {flow ? (
          <p className={css({ fontSize: 'sm', alignSelf: 'end' })}>{t(`flows.kind.${flow.recordKind}`)}</p>
        ) : (
          <SelectField
            label={t('flows.recordKind')}
            value={draft.recordKind}
            onValueChange={(value) => setDraft((d) => ({ ...d, recordKind: value as 'item' | 'paper' }))}
            options={[
              { value: 'item', label: t('flows.kind.item') },
              { value: 'paper', label: t('flows.kind.paper') },
            ]}
          />
        )}
      </div>
      <fieldset className={css({ display: 'grid', gap: '2' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '1' })}>{t('flows.stages')}</legend>
        <ol className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0, m: 0 })}>
          {stages.map((stage, index) => (
            <li key={stage.id} className={stageRow} data-testid={`${testId}-stage-${index}`}>
              <TextField
                label={t('flows.stageName', { n: index + 1 })}
                value={stage.name}
                onChange={(e) => setStage(index, { name: e.target.value })}
                maxLength={FLOW_LIMITS.nameLength}
                required
                error={fieldError(errors, `stage.${index}`)}
              />
              <SelectField
                label={t('flows.stagePermission', { n: index + 1 })}
                value={stage.permission}
                onValueChange={(value) => setStage(index, { permission: value as ExamPermission })}
                options={permissionOptions(t)}
              />
              <div className={css({ display: 'flex', gap: '1' })}>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => moveStage(index, -1)}
                  disabled={index === 0}
                  aria-label={t('flows.moveUp', { name: stage.name || index + 1 })}
                >
                  ↑
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => moveStage(index, 1)}
                  disabled={index === stages.length - 1}
                  aria-label={t('flows.moveDown', { name: stage.name || index + 1 })}
                >
                  ↓
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setDefinition((d) => ({ ...d, stages: d.stages.filter((_, i) => i !== index) }))}
                  aria-label={t('flows.removeStage', { name: stage.name || index + 1 })}
                >
                  {t('flows.remove')}
                </Button>
              </div>
            </li>
          ))}
        </ol>
        <div>
          <Button
            size="sm"
            variant="outline"
            disabled={stages.length >= FLOW_LIMITS.stages}
            onClick={() =>
              setDefinition((d) => ({
                ...d,
                stages: [
                  ...d.stages,
                  {
                    id: stageIdFor(
                      'stage',
                      d.stages.map((s) => s.id),
                    ),
                    name: '',
                    permission: 'ItemReviewer',
                  },
                ],
              }))
            }
            data-testid={`${testId}-add-stage`}
          >
            {t('flows.addStage')}
          </Button>
        </div>
      </fieldset>
      <div className={css({ display: 'grid', gap: '2', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}>
        <SelectField
          label={t('flows.submitPermission')}
          value={draft.definition.submitPermission}
          onValueChange={(value) => setDefinition((d) => ({ ...d, submitPermission: value as ExamPermission }))}
          options={permissionOptions(t)}
        />
        <SelectField
          label={t('flows.retirePermission')}
          value={draft.definition.retirePermission}
          onValueChange={(value) => setDefinition((d) => ({ ...d, retirePermission: value as ExamPermission }))}
          options={permissionOptions(t)}
        />
      </div>
      {errors?.stages ? (
        <ul role="alert" className={css({ color: 'error.main', fontSize: 'sm' })} data-testid={`${testId}-errors`}>
          {errors.stages.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      ) : null}
      {preview ? (
        <div
          ref={previewRef}
          tabIndex={-1}
          role="region"
          aria-labelledby={`${testId}-preview-title`}
          className={css({ display: 'grid', gap: '2', p: '3', borderWidth: '1px', borderColor: 'warning.main', borderRadius: 'md', bg: 'bg.subtle' })}
          data-testid={`${testId}-preview`}
        >
          <p id={`${testId}-preview-title`} className={css({ fontWeight: 'semibold' })}>
            {t('flows.previewTitle')}
          </p>
          <p>{preview.affectedRecords ? t('flows.previewIntro', { count: preview.affectedRecords }) : t('flows.previewNone')}</p>
          {preview.affectedRecords ? (
            <ul className={css({ listStyle: 'disc', ps: '6' })}>
              {preview.stageMoves
                .filter((m) => m.records > 0)
                .map((m) => (
                  <li key={m.from}>
                    {t('flows.previewMove', {
                      count: m.records,
                      from: m.fromName,
                      to: m.to === 'Draft' ? t('flows.draftStage') : m.toName,
                    })}
                  </li>
                ))}
            </ul>
          ) : null}
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            <Button loading={busy} onClick={() => void save(preview.saveVersion, true)} data-testid={`${testId}-confirm`}>
              {t('flows.previewConfirm')}
            </Button>
            <Button variant="ghost" onClick={() => setPreview(null)} data-testid={`${testId}-keep-editing`}>
              {t('flows.previewCancel')}
            </Button>
          </div>
        </div>
      ) : null}
      {failureText && !errors ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
      <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
        {t('flows.path', { path: ['Draft', ...stages.map((s) => s.name || '…'), 'Approved'].join(' → ') })}
      </p>
      <div>
        <Button type="submit" loading={busy} data-testid={`${testId}-save`}>
          {flow ? t('flows.save') : t('flows.add')}
        </Button>
      </div>
    </form>
  );
}

/** The project's review flows (docs/decisions/0092): read-only for those who may not configure. */
export function FlowsEditor({
  projectId,
  flows,
  canEdit,
  onChanged,
}: {
  projectId: number;
  flows: Flow[];
  canEdit: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation('projects');
  const [adding, setAdding] = useState(false);
  if (!canEdit) {
    return (
      <ul className={css({ display: 'grid', gap: '1', py: '2', listStyle: 'disc', ps: '6' })} data-testid="flows-list">
        {flows.map((flow) => (
          <li key={flow.flowId}>
            {flow.name}: {flow.definition.stages.map((stage) => stage.name).join(' → ')}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className={css({ display: 'grid', gap: '3' })} data-testid="flows-editor">
      {flows.map((flow) => (
        <FlowForm key={`${flow.flowId}-${flow.version}`} projectId={projectId} flow={flow} onDone={onChanged} />
      ))}
      {adding ? (
        <FlowForm
          projectId={projectId}
          onDone={async () => {
            setAdding(false);
            await onChanged();
          }}
        />
      ) : (
        <div>
          <Button variant="outline" onClick={() => setAdding(true)} data-testid="add-flow">
            {t('flows.addTitle')}
          </Button>
        </div>
      )}
    </div>
  );
}
