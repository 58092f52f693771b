import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { dropRecord, failRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { projectsApi, type Category } from '../api/projects-api.ts';
import { CategoryFilesDialog } from './category-files-dialog.tsx';
import { isStaleEdit, StaleEditNotice, type StaleEdit } from './stale-edit.tsx';

/** How deep each category sits (the list comes parents first, server/modules/exams/config-routes.ts). */
export function depthsOf(categories: readonly Category[]): Map<number, number> {
  const depth = new Map<number, number>();
  for (const category of categories) depth.set(category.categoryId, category.parentId === null ? 0 : (depth.get(category.parentId) ?? 0) + 1);
  return depth;
}

const row = css({ display: 'flex', gap: '2', alignItems: 'end', flexWrap: 'wrap', py: '2', borderBottomWidth: '1px', borderColor: 'border' });

/** Where a category moves one place up or down among its siblings (the server makes room at `sortOrder`). */
export function neighbourPlace(categories: readonly Category[], category: Category, by: -1 | 1): number | null {
  const siblings = categories.filter((c) => c.parentId === category.parentId);
  const index = siblings.findIndex((c) => c.categoryId === category.categoryId);
  const neighbour = siblings[index + by];
  if (!neighbour) return null;
  return by === -1 ? neighbour.sortOrder : neighbour.sortOrder + 1;
}

function CategoryRow({
  projectId,
  category,
  categories,
  depth,
  canEdit,
  onChanged,
}: {
  projectId: number;
  category: Category;
  categories: readonly Category[];
  depth: number;
  canEdit: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation('projects');
  const { confirm, element: confirmation } = useConfirm();
  const [name, setName] = useState(category.name);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState<{ conflict: StaleEdit; retry: (version: number) => Promise<void> } | null>(null);
  const [busy, setBusy] = useState(false);
  const [showFiles, setShowFiles] = useState(false);

  const run = async (work: (version: number) => Promise<unknown>, done: string, version = category.version) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await work(version);
      // The saved category is the selected one; a deleted one leaves the slice (0201).
      if (answer && typeof answer === 'object' && 'categoryId' in answer) storeRecord('category', answer);
      else dropRecord('category', category.categoryId);
      setStale(null);
      void notify.success(done);
      await onChanged();
    } catch (failure) {
      failRecord('category');
      if (isStaleEdit(failure)) setStale({ conflict: failure, retry: (v) => run(work, done, v) });
      else void notify.error(failure);
    } finally {
      setBusy(false);
    }
  };
  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(t('categories.nameRequired'));
    void run(
      (version) => projectsApi.editCategory(projectId, category.categoryId, { name: name.trim(), version }),
      t('categories.renamed', { name: name.trim() }),
    );
  };
  const move = (by: -1 | 1) => {
    const sortOrder = neighbourPlace(categories, category, by);
    if (sortOrder === null) return;
    void run(
      (version) => projectsApi.moveCategory(projectId, category.categoryId, { parentId: category.parentId, sortOrder, version }),
      t('categories.moved', { name: category.name }),
    );
  };
  const moveUnder = (parent: string) => {
    const parentId = parent ? Number(parent) : null;
    if (parentId === category.parentId) return;
    const sortOrder = categories.filter((c) => c.parentId === parentId).length;
    void run(
      (version) => projectsApi.moveCategory(projectId, category.categoryId, { parentId, sortOrder, version }),
      t('categories.moved', { name: category.name }),
    );
  };
  const remove = async () => {
    if (
      !(await confirm({
        title: t('categories.deleteTitle'),
        message: t('categories.deleteMessage', { name: category.name }),
        confirmLabel: t('categories.delete'),
      }))
    )
      return;
    void run(() => projectsApi.deleteCategory(projectId, category.categoryId), t('categories.deleted', { name: category.name }));
  };

  const filesButton = (
    <Button
      size="sm"
      variant="ghost"
      onClick={() => {
        storeRecord('category', category);
        setShowFiles(true);
      }}
      aria-label={t('files.openNamed', { name: category.name, count: category.fileCount })}
      data-testid={`category-files-${category.categoryId}`}
    >
      {t('files.open', { count: category.fileCount })}
    </Button>
  );

  return (
    <li style={{ paddingInlineStart: `${depth * 1.5}rem` }} data-testid={`category-${category.categoryId}`}>
      {stale ? (
        <StaleEditNotice
          conflict={stale.conflict}
          busy={busy}
          onLoadLatest={() => void onChanged()}
          onOverwrite={() => void stale.retry(stale.conflict.currentVersion)}
        />
      ) : null}
      {canEdit ? (
        <form onSubmit={rename} className={row} aria-label={category.name} noValidate>
          <TextField label={t('categories.name')} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} required error={error} />
          {category.isRetired ? <Badge tone="neutral">{t('categories.retired')}</Badge> : null}
          <Button type="submit" size="sm" variant="outline" loading={busy} aria-label={t('categories.renameNamed', { name: category.name })}>
            {t('categories.rename')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy}
            onClick={() =>
              void run(
                (version) => projectsApi.editCategory(projectId, category.categoryId, { isRetired: !category.isRetired, version }),
                category.isRetired ? t('categories.restored', { name: category.name }) : t('categories.retiredDone', { name: category.name }),
              )
            }
          >
            {category.isRetired ? t('categories.bringBack') : t('categories.retire')}
          </Button>
          <Button size="sm" variant="ghost" disabled={busy} onClick={() => void remove()} aria-label={t('categories.deleteNamed', { name: category.name })}>
            {t('categories.delete')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy || neighbourPlace(categories, category, -1) === null}
            onClick={() => move(-1)}
            aria-label={t('flows.moveUp', { name: category.name })}
          >
            ↑
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy || neighbourPlace(categories, category, 1) === null}
            onClick={() => move(1)}
            aria-label={t('flows.moveDown', { name: category.name })}
          >
            ↓
          </Button>
          <SelectField
            label={t('categories.moveUnder', { name: category.name })}
            value={category.parentId === null ? '' : String(category.parentId)}
            onValueChange={moveUnder}
            placeholder={t('categories.topLevel')}
            disabled={busy}
            options={categories
              .filter((c) => c.categoryId !== category.categoryId && !c.isRetired)
              .map((c) => ({ value: String(c.categoryId), label: c.name }))}
          />
          {filesButton}
        </form>
      ) : (
        <p className={css({ py: '1' })}>
          {category.name} {category.isRetired ? <Badge tone="neutral">{t('categories.retired')}</Badge> : null} {filesButton}
        </p>
      )}
      {showFiles ? (
        <CategoryFilesDialog
          projectId={projectId}
          category={category}
          canEdit={canEdit}
          onClose={() => {
            setShowFiles(false);
            void onChanged();
          }}
        />
      ) : null}
      {confirmation}
    </li>
  );
}

/** The project's category tree (subject → unit → topic): add, rename, retire, delete what nothing uses. */
export function CategoriesEditor({
  projectId,
  categories,
  canEdit,
  onChanged,
}: {
  projectId: number;
  categories: Category[];
  canEdit: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation('projects');
  const depths = depthsOf(categories);
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]> | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: [t('categories.nameRequired')] });
    setBusy(true);
    setErrors(null);
    try {
      storeRecord('category', await projectsApi.createCategory(projectId, { name: name.trim(), parentId: parentId ? Number(parentId) : null }));
      void notify.success(t('setup.categoryAdded', { name: name.trim() }));
      setName('');
      await onChanged();
    } catch (failure) {
      failRecord('category');
      const fieldErrors = (failure as { errors?: Record<string, string[]> } | null)?.errors;
      if (fieldErrors) setErrors(fieldErrors);
      else void notify.error(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="categories-editor">
      {categories.length === 0 ? <p className={css({ py: '2', color: 'fg.muted' })}>{t('categories.none')}</p> : null}
      <ul className={css({ listStyle: 'none', p: 0, m: 0 })}>
        {categories.map((category) => (
          <CategoryRow
            key={`${category.categoryId}-${category.version}`}
            projectId={projectId}
            category={category}
            categories={categories}
            depth={depths.get(category.categoryId) ?? 0}
            canEdit={canEdit}
            onChanged={onChanged}
          />
        ))}
      </ul>
      {canEdit ? (
        <form onSubmit={(e) => void add(e)} className={row} aria-label={t('categories.addTitle')} data-testid="new-category" noValidate>
          <TextField
            label={t('categories.newName')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
            required
            error={fieldError(errors, 'name')}
          />
          <SelectField
            label={t('categories.parent')}
            value={parentId}
            onValueChange={(value) => setParentId(value)}
            placeholder={t('categories.topLevel')}
            options={categories
              .filter((c) => !c.isRetired)
              .map((c) => ({ value: String(c.categoryId), label: `${'— '.repeat(depths.get(c.categoryId) ?? 0)}${c.name}` }))}
          />
          <Button type="submit" loading={busy}>
            {t('setup.addCategory')}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
