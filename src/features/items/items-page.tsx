import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { DIFFICULTIES, type BulkAnswer, type ItemSummary } from '#machines/items/item-records.ts';
import { ITEM_KINDS } from '#machines/items/item-schema.ts';
import { authUserStore } from '#src/app/auth/auth-user-store.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { TreeSelectField } from '#src/components/ui/tree-select.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { saveFile } from '#src/lib/save-file.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usePagedSearch, type UrlFilters } from '#src/lib/use-paged-search.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { NoProjectState } from '#src/features/projects/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { itemsApi } from './api/items-api.ts';
import { useItemWorkspace, type ItemWorkspace } from './lib/use-item-workspace.ts';

/**
 * The item bank's list (issue 16, docs/decisions/0128): filters, sort and page in the URL
 * (docs/decisions/0081) — kind, category (with its subtree), difficulty, status, a language
 * variant present or missing, author, and text search; possible duplicates flagged; bulk move,
 * send to review and retire on the chosen rows.
 */
export const ITEM_LIST_FILTERS: UrlFilters = {
  kind: 'string',
  categoryId: 'number',
  difficulty: 'string',
  status: 'string',
  language: 'string',
  languagePresent: 'string',
  authorId: 'string',
};

type BulkAction = 'moveCategory' | 'submit' | 'retire';

function BulkDialog({
  action,
  count,
  workspace,
  onClose,
  onDone,
}: {
  action: BulkAction;
  count: number;
  workspace: ItemWorkspace;
  onClose: () => void;
  onDone: (categoryId?: number) => Promise<void>;
}) {
  const { t } = useTranslation('items');
  const [categoryId, setCategoryId] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      title={t(`bulk.${action}Title`, { count })}
      onClose={onClose}
      busy={busy}
      testId="bulk-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        void onDone(categoryId ? Number(categoryId) : undefined).finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={action === 'moveCategory' && !categoryId} data-testid="bulk-confirm">
            {t(`bulk.${action}`)}
          </Button>
        </>
      }
    >
      {action === 'moveCategory' ? (
        <SelectField
          label={t('field.category')}
          value={categoryId}
          placeholder={t('field.chooseCategory')}
          onValueChange={(value) => setCategoryId(value)}
          options={workspace.categoryOptions}
          required
          testId="bulk-category"
        />
      ) : (
        <p>{t(`bulk.${action}Confirm`, { count })}</p>
      )}
    </Dialog>
  );
}

function ItemsList({ workspace }: { workspace: ItemWorkspace }) {
  const { t } = useTranslation('items');
  const search = usePagedSearch<ItemSummary>((query) => itemsApi.search(query), { orderBy: ['updatedOn desc'] }, ITEM_LIST_FILTERS);
  const errorText = useErrorText(search.error);
  const me = useStoreValue(authUserStore, (s) => s.context.user?.user_id ?? null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [bulk, setBulk] = useState<BulkAction | null>(null);
  const filters = search.query.filters;
  const filter = (name: string, value: string | number | null) => search.send({ type: 'search.filter', filters: { [name]: value === '' ? null : value } });
  const rows = search.result?.data ?? [];
  const allChosen = rows.length > 0 && rows.every((r) => chosen.has(r.itemId));
  const toggle = (id: number, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const runBulk = async (action: BulkAction, categoryId?: number) => {
    let answer: BulkAnswer;
    try {
      answer = await itemsApi.bulk({ action, itemIds: [...chosen], ...(categoryId ? { categoryId } : {}) });
    } catch {
      void notify.error(t('bulk.failed'));
      return;
    }
    setBulk(null);
    if (answer.failed) void notify.warning(t('bulk.partly', { succeeded: answer.succeeded, failed: answer.failed }));
    else void notify.success(t('bulk.done', { count: answer.succeeded }));
    setChosen(new Set(answer.results.filter((r) => !r.ok).map((r) => r.itemId)));
    search.send({ type: 'search.reload' });
  };

  const exportChosen = () =>
    void itemsApi.exportItems({ itemIds: [...chosen] }).then(
      ({ blob, filename }) => saveFile(blob, filename ?? 'items-qti.zip'),
      () => void notify.error(t('export.failed')),
    );

  const columns: Column<ItemSummary>[] = [
    {
      key: 'choose',
      header: (
        <Checkbox checked={allChosen} onChange={(on) => rows.forEach((r) => toggle(r.itemId, on))} testId="choose-all">
          <span className={css({ srOnly: true })}>{t('list.chooseAll')}</span>
        </Checkbox>
      ),
      cell: (item) => (
        <Checkbox checked={chosen.has(item.itemId)} onChange={(on) => toggle(item.itemId, on)} testId={`choose-${item.code}`}>
          <span className={css({ srOnly: true })}>{t('list.chooseNamed', { code: item.code })}</span>
        </Checkbox>
      ),
    },
    {
      key: 'code',
      header: t('field.code'),
      sortKey: 'code',
      cell: (item) => (
        <Link
          to={`/items/${item.itemId}`}
          className={css({ fontFamily: 'mono', color: 'primary.dark', textDecoration: 'underline' })}
          data-testid={`item-link-${item.code}`}
        >
          {item.code}
        </Link>
      ),
    },
    {
      key: 'stem',
      header: t('field.stem'),
      cell: (item) => (
        <span className={css({ display: 'block', maxWidth: '96', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })} title={item.stemText}>
          {item.stemText || '—'}
          {item.duplicate ? (
            <span className={css({ ms: '2' })}>
              <Badge tone="warning" testId={`duplicate-${item.code}`}>
                {t('duplicates.badge', { code: item.duplicate.code, percent: Math.round(item.duplicate.similarity * 100) })}
              </Badge>
            </span>
          ) : null}
        </span>
      ),
    },
    { key: 'kind', header: t('field.kind'), sortKey: 'kind', cell: (item) => t(`kinds.${item.kind}`) },
    { key: 'category', header: t('field.category'), cell: (item) => item.categoryName },
    { key: 'difficulty', header: t('field.difficulty'), sortKey: 'difficulty', cell: (item) => t(`difficulty.${item.difficulty}`) },
    {
      key: 'languages',
      header: t('field.languages'),
      cell: (item) => (
        <span className={css({ display: 'inline-flex', gap: '1', flexWrap: 'wrap' })}>
          {item.languages.map((l) => (
            <Badge key={l} tone="success">
              {l}
            </Badge>
          ))}
          {item.missingLanguages.map((l) => (
            <span key={l} title={t('variant.missingNamed', { language: t(`language.${l}`, { defaultValue: l }) })}>
              <Badge tone="neutral">
                <s>{l}</s>
                <span className={css({ srOnly: true })}>{t('variant.missing')}</span>
              </Badge>
            </span>
          ))}
        </span>
      ),
    },
    {
      key: 'status',
      header: t('field.status'),
      sortKey: 'status',
      cell: (item) => (
        <Badge tone={item.status === 'Approved' ? 'success' : item.status === 'Retired' ? 'error' : item.status === 'Draft' ? 'neutral' : 'info'}>
          {statusName(item.status)}
        </Badge>
      ),
    },
    { key: 'version', header: t('field.version'), cell: (item) => item.versionNumber },
    { key: 'author', header: t('field.author'), cell: (item) => item.author?.name ?? '—' },
  ];

  const statusName = (status: string) => workspace.statuses.find((s) => s.value === status)?.name ?? t(`status.${status}`, { defaultValue: status });
  const statusOptions = [
    ...new Set([...workspace.statuses.map((s) => s.value), ...(typeof filters.status === 'string' && filters.status ? [filters.status] : [])]),
  ];
  const activeFilters = Object.keys(ITEM_LIST_FILTERS).filter((name) => filters[name] !== null && filters[name] !== undefined && filters[name] !== '').length;
  const hasFilters = activeFilters > 0 || Boolean(search.query.keyword);

  return (
    <section aria-labelledby="items-title" className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        id="items-title"
        title={t('list.title', { project: String(workspace.project?.name ?? '') })}
        description={t('list.intro')}
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            <Link
              to="/items/import"
              className={css({ alignSelf: 'center', color: 'primary.dark', textDecoration: 'underline' })}
              data-testid="items-import-link"
            >
              {t('import.link')}
            </Link>
            <Link
              to={`/items/new${filters.kind ? `?kind=${String(filters.kind)}` : ''}`}
              className={css({ bg: 'primary.main', color: 'white', px: '4', py: '2', borderRadius: 'md', fontWeight: 'medium' })}
              data-testid="new-item"
            >
              {t('list.new')}
            </Link>
          </div>
        }
      />
      <div className={card}>
        <div className={css({ p: '4', display: 'grid', gap: '3' })} role="search" aria-label={t('list.filters')}>
          <SearchInput
            label={t('list.search')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
            data-testid="items-search"
          />
          <FilterFold active={activeFilters}>
            <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: 'repeat(auto-fill, minmax(11rem, 1fr))' })}>
              <SelectField
                label={t('field.kind')}
                value={String(filters.kind ?? '')}
                placeholder={t('list.any')}
                onValueChange={(value) => filter('kind', value)}
                options={ITEM_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
                testId="filter-kind"
              />
              <TreeSelectField
                label={t('field.category')}
                value={filters.categoryId ? String(filters.categoryId) : ''}
                placeholder={t('list.anyCategory')}
                treeLabel={t('list.categoryTree')}
                onValueChange={(value) => filter('categoryId', value ? Number(value) : null)}
                nodes={workspace.categoryTree}
                hint={t('list.categoryHint')}
                testId="filter-category"
              />
              <SelectField
                label={t('field.difficulty')}
                value={String(filters.difficulty ?? '')}
                placeholder={t('list.any')}
                onValueChange={(value) => filter('difficulty', value)}
                options={DIFFICULTIES.map((d) => ({ value: d, label: t(`difficulty.${d}`) }))}
                testId="filter-difficulty"
              />
              <SelectField
                label={t('field.status')}
                value={String(filters.status ?? '')}
                placeholder={t('list.any')}
                onValueChange={(value) => filter('status', value)}
                options={statusOptions.map((s) => ({ value: s, label: statusName(s) }))}
                testId="filter-status"
              />
              <SelectField
                label={t('list.language')}
                value={String(filters.language ?? '')}
                placeholder={t('list.any')}
                onValueChange={(value) => filter('language', value)}
                options={workspace.languages.map((l) => ({ value: l, label: t(`language.${l}`, { defaultValue: l }) }))}
                testId="filter-language"
              />
              <SelectField
                label={t('list.variant')}
                value={String(filters.languagePresent ?? '')}
                placeholder={t('list.any')}
                disabled={!filters.language}
                onValueChange={(value) => filter('languagePresent', value)}
                options={[
                  { value: 'present', label: t('list.variantPresent') },
                  { value: 'missing', label: t('list.variantMissing') },
                ]}
                testId="filter-variant"
              />
              <SelectField
                label={t('field.author')}
                value={filters.authorId ? (filters.authorId === me ? 'me' : 'other') : ''}
                placeholder={t('list.anyone')}
                onValueChange={(value) => filter('authorId', value === 'me' ? me : null)}
                options={[
                  { value: 'me', label: t('list.me') },
                  ...(filters.authorId && filters.authorId !== me ? [{ value: 'other', label: t('list.someoneElse') }] : []),
                ]}
                testId="filter-author"
              />
            </div>
          </FilterFold>
        </div>
        {chosen.size ? (
          <div
            role="toolbar"
            aria-label={t('bulk.toolbar')}
            className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center', px: '4', pb: '3' })}
            data-testid="bulk-bar"
          >
            <span aria-live="polite">{t('bulk.chosen', { count: chosen.size })}</span>
            <Button size="sm" variant="outline" onClick={() => setBulk('moveCategory')} data-testid="bulk-moveCategory">
              {t('bulk.moveCategory')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => setBulk('submit')} data-testid="bulk-submit">
              {t('bulk.submit')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => setBulk('retire')} data-testid="bulk-retire">
              {t('bulk.retire')}
            </Button>
            <Button size="sm" variant="outline" onClick={exportChosen} data-testid="bulk-export">
              {t('export.selection')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setChosen(new Set())}>
              {t('bulk.clear')}
            </Button>
          </div>
        ) : null}
        <PagedTable
          search={search}
          errorText={errorText}
          empty={<EmptyState title={hasFilters ? t('list.noneMatch') : t('list.none')}>{hasFilters ? t('list.noneMatchHint') : t('list.noneHint')}</EmptyState>}
          caption={t('list.caption')}
          columns={columns}
          rowKey={(item) => item.itemId}
          testId="items-table"
        />
      </div>
      {bulk ? (
        <BulkDialog action={bulk} count={chosen.size} workspace={workspace} onClose={() => setBulk(null)} onDone={(categoryId) => runBulk(bulk, categoryId)} />
      ) : null}
    </section>
  );
}

function ItemsPage() {
  const workspace = useItemWorkspace();
  if (!workspace.project) return <NoProjectState />;
  return <ItemsList key={String(workspace.projectId)} workspace={workspace} />;
}

export default function GatedItemsPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <ItemsPage />
    </PermissionGate>
  );
}
