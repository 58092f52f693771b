import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { fromPromise } from 'xstate';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { addVariant, blankItem, changeKind, languagesToShow, removeVariant } from '#machines/items/item-draft.ts';
import { itemEditorMachine, type EditorDraft, type EditorRecord } from '#machines/items/item-editor.machine.ts';
import { DIFFICULTIES, type DuplicateHint, type ItemRecord, type ReviewAction } from '#machines/items/item-records.ts';
import { ITEM_KINDS, type ItemContent, type ItemKind } from '#machines/items/item-schema.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { Tabs } from '#src/components/ui/tabs.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { saveFile } from '#src/lib/save-file.ts';
import { NoProjectState } from '#src/features/projects/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { itemsApi, type CategoryFile } from './api/items-api.ts';
import { plainText } from '#machines/results/answer-text.ts';
import { ItemPreview } from './components/item-preview.tsx';
import { KindFields } from './components/kind-fields.tsx';
import { ReviewPanel } from './components/review-panel.tsx';
import { VariantColumn } from './components/variant-column.tsx';
import { VersionsPanel } from './components/versions-panel.tsx';
import { useItemWorkspace, type ItemWorkspace } from './lib/use-item-workspace.ts';
import { useMediaUrls } from './lib/use-media-urls.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';

/**
 * One item: its kind's fields, every language side by side, the candidate's preview, review
 * through the project's flow and the versions (issue 16, docs/decisions/0128). The state lives
 * in the item editor actor (machines/items/item-editor.machine.ts); this view sends it events.
 */
const toEditorRecord = (record: ItemRecord): EditorRecord => ({
  itemId: record.itemId,
  code: record.code,
  version: record.version,
  versionNumber: record.versionNumber,
  status: record.status,
  content: record.content,
  actions: record.actions,
  editable: record.editable,
  editCreatesVersion: record.editCreatesVersion,
  categoryId: record.categoryId,
  difficulty: record.difficulty,
});

type Tab = 'preview' | 'review' | 'versions';

function ImagePickerDialog({ categoryId, onClose, onPick }: { categoryId: number | null; onClose: () => void; onPick: (file: CategoryFile) => void }) {
  const { t } = useTranslation('items');
  const [files, setFiles] = useState<CategoryFile[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (categoryId === null) return;
    itemsApi.categoryFiles(categoryId).then(
      (list) => setFiles(list.filter((f) => f.contentType.startsWith('image/'))),
      () => setFailed(true),
    );
  }, [categoryId]);
  return (
    <Dialog
      title={t('image.title')}
      onClose={onClose}
      footer={
        <Button variant="ghost" onClick={onClose}>
          {t('action.cancel')}
        </Button>
      }
      testId="image-picker"
    >
      {categoryId === null ? <p>{t('image.noCategory')}</p> : failed ? <ErrorState /> : files === null ? <LoadingState /> : null}
      {files && files.length === 0 ? <p>{t('image.none')}</p> : null}
      {files?.length ? (
        <ul className={css({ display: 'grid', gap: '2' })}>
          {files.map((file) => (
            <li key={file.fileId}>
              <Button variant="outline" onClick={() => onPick(file)} data-testid={`pick-image-${file.fileName}`}>
                {file.fileName}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </Dialog>
  );
}

/** A media key for a category file: its name made safe, unique within the item. */
export function mediaKeyFor(content: ItemContent, file: { fileId: string; fileName: string }): { content: ItemContent; key: string } {
  const existing = content.media.find((m) => m.categoryFileId === file.fileId);
  if (existing) return { content, key: existing.key };
  const base =
    file.fileName
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(0, 120) || 'file';
  let key = base;
  for (let n = 2; content.media.some((m) => m.key === key); n++) key = `${n}-${base}`;
  const mimeType = /\.png$/i.test(file.fileName)
    ? 'image/png'
    : /\.gif$/i.test(file.fileName)
      ? 'image/gif'
      : /\.webp$/i.test(file.fileName)
        ? 'image/webp'
        : 'image/jpeg';
  return { content: { ...content, media: [...content.media, { key, categoryFileId: file.fileId, fileName: file.fileName, mimeType }] }, key };
}

function useDuplicates(content: ItemContent | undefined, itemId: number | null): DuplicateHint[] {
  const [hints, setHints] = useState<DuplicateHint[]>([]);
  const stem = content ? plainText(Object.values(content.variants)[0]?.stem ?? '') : '';
  useEffect(() => {
    if (stem.length < 12) {
      setHints([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      itemsApi.duplicatesOfStem(stem, itemId).then(
        (list) => live && setHints(list),
        () => undefined,
      );
    }, 700);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [stem, itemId]);
  return hints;
}

function Editor({ itemId, workspace }: { itemId: number | null; workspace: ItemWorkspace }) {
  const { t } = useTranslation('items');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const kindParam = params.get('kind');
  const startKind: ItemKind = (ITEM_KINDS as readonly string[]).includes(kindParam ?? '') ? (kindParam as ItemKind) : 'singleChoice';
  const startCategory = Number(params.get('categoryId')) || null;
  const initial = useMemo<EditorDraft | undefined>(
    () => (itemId === null ? { content: blankItem(startKind, ['en']), categoryId: startCategory, difficulty: 'medium' } : undefined),
    // A new item starts once; later URL changes do not reset the author's work.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [itemId],
  );
  const machine = useMemo(
    () =>
      itemEditorMachine.provide({
        actors: {
          loadItem: fromPromise(async ({ input }) => toEditorRecord(await itemsApi.get(input.itemId))),
          saveItem: fromPromise(async ({ input }) => {
            const { draft } = input;
            if (input.itemId === null) {
              if (draft.categoryId === null) throw { status: 400, issues: [{ path: 'categoryId', message: t('editor.chooseCategory') }] };
              return toEditorRecord(
                await itemsApi.create({ categoryId: draft.categoryId, difficulty: draft.difficulty as (typeof DIFFICULTIES)[number], content: draft.content }),
              );
            }
            return toEditorRecord(
              await itemsApi.edit(input.itemId, {
                content: draft.content,
                ...(draft.categoryId !== null ? { categoryId: draft.categoryId } : {}),
                difficulty: draft.difficulty as (typeof DIFFICULTIES)[number],
                version: input.version ?? undefined,
              }),
            );
          }),
          performAction: fromPromise(async ({ input }) =>
            toEditorRecord(
              (await itemsApi.review(input.itemId, { action: input.action as ReviewAction, comment: input.comment || undefined, version: input.version }))
                .record,
            ),
          ),
        },
      }),
    [t],
  );
  const [snapshot, send, editor] = useMachine(machine, { input: { itemId, initial } });
  // Listed for the live mode of /machines, and read by the screen's path replays.
  useEffect(() => registerLiveActor('item-editor', itemEditorMachine, editor), [editor]);
  const { context } = snapshot;
  const draft = context.draft;
  const record = context.record;
  const media = useMediaUrls(draft?.content.media ?? []);
  const loadErrorText = useErrorText(context.loadError);
  const saveErrorText = useErrorText(context.saveError);
  const conflictText = useErrorText(context.conflict && context.conflict !== true ? context.conflict : null);
  const [tab, setTab] = useState<Tab>('preview');
  const [picker, setPicker] = useState(false);
  const pickResolve = useRef<((key: string | null) => void) | null>(null);
  const duplicates = useDuplicates(draft?.content, context.itemId);

  // The item open in the editor is the item workspace slice (docs/decisions/0204): the record as
  // the server last answered it; a refused or failed save resets it.
  useEffect(() => {
    if (record)
      storeRecord('itemWorkspace', {
        itemId: record.itemId,
        code: record.code,
        kind: record.content.kind,
        status: record.status,
        version: record.version,
        versionNumber: record.versionNumber,
        categoryId: record.categoryId,
      });
  }, [record]);
  useEffect(() => {
    if (context.saveError || context.conflict) failRecord('itemWorkspace');
  }, [context.saveError, context.conflict]);
  // A new item, once saved, gets its own URL (reload and links open it).
  useEffect(() => {
    if (itemId === null && context.itemId !== null) navigate(`/items/${context.itemId}`, { replace: true });
  }, [itemId, context.itemId, navigate]);
  useEffect(() => {
    if (!context.notice) return;
    void notify.success(t(`editor.notice.${context.notice}`, { n: record?.versionNumber ?? 1 }));
    send({ type: 'notice.dismiss' });
  }, [context.notice, record?.versionNumber, send, t]);

  if (snapshot.matches('loading') || snapshot.matches('start')) return <LoadingState />;
  if (snapshot.matches('loadFailed') || !draft) return <ErrorState message={loadErrorText} onRetry={() => send({ type: 'reload' })} />;

  const content = draft.content;
  const canEdit = record === null || (record.editCreatesVersion ? context.unlocked : record.editable);
  const busy = snapshot.matches('saving') || snapshot.matches('acting');
  const change = (next: ItemContent) => send({ type: 'draft.change', content: next });
  const firstLanguage = Object.keys(content.variants)[0] ?? 'en';
  const labelOf = (id: string) => plainText(content.variants[firstLanguage]?.choices?.[id] ?? '');
  const pickImage = () =>
    new Promise<string | null>((resolve) => {
      pickResolve.current = resolve;
      setPicker(true);
    });
  const statusTone =
    record?.status === 'Approved' ? 'success' : record?.status === 'Retired' ? 'error' : record?.status === 'Draft' || !record ? 'neutral' : 'info';

  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        title={record ? t('editor.titleExisting', { code: record.code }) : t('editor.titleNew')}
        description={
          <span className={css({ display: 'inline-flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
            <Badge tone={statusTone} testId="item-status">
              {record
                ? (workspace.statuses.find((s) => s.value === record.status)?.name ?? t(`status.${record.status}`, { defaultValue: record.status }))
                : t('status.new')}
            </Badge>
            {record ? <span data-testid="item-version">{t('versions.named', { n: record.versionNumber })}</span> : null}
            <span>{t(`kinds.${content.kind}`)}</span>
          </span>
        }
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            <Link to="/items" className={css({ alignSelf: 'center', textDecoration: 'underline', color: 'primary.dark' })}>
              {t('editor.backToList')}
            </Link>
            {record ? (
              <Button
                variant="outline"
                onClick={() =>
                  void itemsApi.exportItem(record.itemId).then(
                    ({ blob, filename }) => saveFile(blob, filename ?? `item-${record.itemId}.zip`),
                    () => void notify.error(t('export.failed')),
                  )
                }
                data-testid="export-item"
              >
                {t('export.item')}
              </Button>
            ) : null}
            {record && record.editCreatesVersion && !context.unlocked ? (
              <Button variant="outline" onClick={() => send({ type: 'version.start' })} data-testid="edit-new-version">
                {t('editor.editNewVersion', { n: record.versionNumber + 1 })}
              </Button>
            ) : null}
            {canEdit ? (
              <Button onClick={() => send({ type: 'save' })} loading={busy} disabled={!context.dirty && record !== null} data-testid="save-item">
                {record === null ? t('editor.create') : context.unlocked ? t('editor.saveNewVersion', { n: record.versionNumber + 1 }) : t('editor.save')}
              </Button>
            ) : null}
          </div>
        }
      />

      {!canEdit ? (
        <p role="status" className={css({ bg: 'info.lighter', borderRadius: 'md', p: '3' })} data-testid="read-only-note">
          {record?.editCreatesVersion ? t('editor.approvedReadOnly') : t('editor.lockedReadOnly')}
        </p>
      ) : null}
      {context.conflict ? (
        <div role="alert" className={css({ bg: 'warning.lighter', borderRadius: 'md', p: '3', display: 'grid', gap: '2' })} data-testid="conflict">
          <strong>{t('editor.conflictTitle')}</strong>
          <span>{conflictText ?? t('editor.conflictText')}</span>
          {record ? (
            <div>
              <Button size="sm" variant="outline" onClick={() => send({ type: 'reload' })} data-testid="conflict-reload">
                {t('editor.conflictReload')}
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
      {context.saveError ? (
        <p role="alert" className={css({ color: 'error.main' })} data-testid="save-error">
          {saveErrorText ?? t('editor.saveFailed')}
        </p>
      ) : null}
      {context.issues.length ? (
        <div role="alert" className={css({ bg: 'error.lighter', borderRadius: 'md', p: '3' })} data-testid="item-issues">
          <strong>{t('editor.issuesTitle')}</strong>
          <ul className={css({ listStyleType: 'disc', ps: '5' })}>
            {context.issues.map((issue, index) => (
              <li key={index}>
                <code>{issue.path}</code>: {issue.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {duplicates.length ? (
        <div role="status" className={css({ bg: 'warning.lighter', borderRadius: 'md', p: '3' })} data-testid="duplicate-hints">
          <strong>{t('duplicates.title')}</strong>
          <ul>
            {duplicates.map((d) => (
              <li key={d.itemId}>
                <Link to={`/items/${d.itemId}`} className={css({ textDecoration: 'underline' })}>
                  {d.code}
                </Link>{' '}
                {t('duplicates.similar', { percent: Math.round(d.similarity * 100) })} — {d.stemText}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className={`${card} ${css({ p: '4', display: 'grid', gap: '4' })}`}>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'end' })}>
          <SelectField
            label={t('field.kind')}
            value={content.kind}
            disabled={record !== null || !canEdit}
            onValueChange={(value) => change(changeKind(content, value as ItemKind))}
            options={ITEM_KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`) }))}
            testId="item-kind"
          />
          <SelectField
            label={t('field.category')}
            value={draft.categoryId === null ? '' : String(draft.categoryId)}
            disabled={!canEdit}
            placeholder={t('field.chooseCategory')}
            onValueChange={(value) => send({ type: 'draft.meta', categoryId: value ? Number(value) : null })}
            options={workspace.categoryOptions}
            required
            testId="item-category"
          />
          <SelectField
            label={t('field.difficulty')}
            value={draft.difficulty}
            disabled={!canEdit}
            onValueChange={(value) => send({ type: 'draft.meta', difficulty: value })}
            options={DIFFICULTIES.map((d) => ({ value: d, label: t(`difficulty.${d}`) }))}
            testId="item-difficulty"
          />
        </div>
        <KindFields content={content} onChange={change} readOnly={!canEdit} labelOf={labelOf} />
      </div>

      <section aria-labelledby="variants-title" className={css({ display: 'grid', gap: '2' })}>
        <h2 id="variants-title" className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
          {t('variant.title')}
        </h2>
        <div
          className={css({ display: 'grid', gap: '3', gridAutoFlow: 'column', gridAutoColumns: 'minmax(18rem, 1fr)', overflowX: 'auto', pb: '2' })}
          data-testid="variants"
        >
          {languagesToShow(content, workspace.languages).map(({ language, present }) => (
            <VariantColumn
              key={language}
              content={content}
              language={language}
              present={present}
              readOnly={!canEdit}
              media={media}
              onText={(lang, field) => send({ type: 'draft.text', language: lang, field })}
              onAdd={() => change(addVariant(content, language))}
              onRemove={() => change(removeVariant(content, language))}
              pickImage={pickImage}
            />
          ))}
        </div>
      </section>

      <div className={`${card} ${css({ p: '4' })}`}>
        <Tabs<Tab>
          label={t('editor.panels')}
          value={record ? tab : 'preview'}
          onChange={setTab}
          tabs={[
            { value: 'preview', label: t('preview.title') },
            ...(record
              ? [
                  { value: 'review' as const, label: t('review.title') },
                  { value: 'versions' as const, label: t('versions.title') },
                ]
              : []),
          ]}
        >
          {(value) =>
            value === 'preview' ? (
              <ItemPreview
                content={content}
                media={media}
                stored={record && !context.dirty ? { itemId: record.itemId, versionNumber: record.versionNumber } : null}
              />
            ) : value === 'review' && record ? (
              <ReviewPanel
                itemId={record.itemId}
                actions={record.actions}
                status={record.status}
                busy={busy}
                dirty={context.dirty}
                onAction={(action, comment) => send({ type: 'action.take', action, comment })}
              />
            ) : record ? (
              <VersionsPanel itemId={record.itemId} versionNumber={record.versionNumber} />
            ) : null
          }
        </Tabs>
      </div>

      {picker ? (
        <ImagePickerDialog
          categoryId={draft.categoryId}
          onClose={() => {
            setPicker(false);
            pickResolve.current?.(null);
          }}
          onPick={(file) => {
            setPicker(false);
            const { content: next, key } = mediaKeyFor(content, file);
            if (next !== content) change(next);
            pickResolve.current?.(key);
          }}
        />
      ) : null}
    </div>
  );
}

function ItemEditorPage() {
  const { itemId } = useParams();
  const workspace = useItemWorkspace();
  if (!workspace.project) return <NoProjectState />;
  const id = itemId && /^\d+$/.test(itemId) ? Number(itemId) : null;
  // A new project or another item starts a fresh editor.
  return <Editor key={`${String(workspace.projectId)}:${id ?? 'new'}`} itemId={id} workspace={workspace} />;
}

export default function GatedItemEditorPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <ItemEditorPage />
    </PermissionGate>
  );
}
