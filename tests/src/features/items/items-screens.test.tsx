import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { blankItem, setText } from '#machines/items/item-draft.ts';
import type { ItemRecord, ItemSummary } from '#machines/items/item-records.ts';
import type { ItemContent, ItemOf } from '#machines/items/item-schema.ts';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { allPermissions } from '#machines/permissions.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectProject } from '#src/app/stores/workspace-selection.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseOption } from '#tests/src/support/select.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { itemWorkspaceStore } from '#src/app/stores/slices.ts';

const items = vi.hoisted(() => ({
  search: vi.fn(),
  get: vi.fn(),
  create: vi.fn(),
  edit: vi.fn(),
  review: vi.fn(),
  comments: vi.fn(),
  versions: vi.fn(),
  diff: vi.fn(),
  bulk: vi.fn(),
  duplicatesOfStem: vi.fn(),
  score: vi.fn(),
  exportItems: vi.fn(),
  exportItem: vi.fn(),
  categoryFiles: vi.fn(),
  categoryFile: vi.fn(),
}));
const projects = vi.hoisted(() => ({ categories: vi.fn(), itemTypes: vi.fn(), flows: vi.fn() }));

vi.mock('#src/features/items/api/items-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/items/api/items-api.ts')>()),
  itemsApi: items,
}));
vi.mock('#src/features/projects/api/projects-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/projects/api/projects-api.ts')>()),
  projectsApi: projects,
}));

const { default: ItemsPage } = await import('#src/features/items/items-page.tsx');
const { default: ItemEditorPage } = await import('#src/features/items/item-editor-page.tsx');
const { RichHtml, sanitizeItemHtml } = await import('#src/features/items/components/rich-html.tsx');
const { ItemPreview } = await import('#src/features/items/components/item-preview.tsx');
const { itemSearchBody } = await import('#src/features/items/api/items-api.ts');
const { categoryOptions } = await import('#src/features/items/lib/category-tree.ts');

const categories = [
  { categoryId: 1, parentId: null, name: 'Mathematics', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 },
  { categoryId: 2, parentId: 1, name: 'Algebra', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 },
  { categoryId: 3, parentId: 2, name: 'Polynomials', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 },
  { categoryId: 4, parentId: 1, name: 'Old unit', sortOrder: 1, isRetired: true, fileCount: 0, version: 1 },
];

function summary(n: number, overrides: Partial<ItemSummary> = {}): ItemSummary {
  return {
    itemId: n,
    code: `ITM-${n}`,
    kind: 'singleChoice',
    itemTypeId: null,
    categoryId: 3,
    categoryName: 'Polynomials',
    difficulty: 'medium',
    cognitiveLevel: null,
    status: 'Draft',
    languages: ['en', 'hi'],
    missingLanguages: ['gu'],
    stemText: `Question ${n}`,
    maxScore: 1,
    versionNumber: 1,
    approvedVersionId: null,
    author: { userId: '00000000-0000-4000-8000-000000000001', name: 'Priya Nair' },
    version: 1,
    updatedOn: '2026-11-25T09:00:00.000Z',
    duplicate: null,
    ...overrides,
  };
}

function record(content: ItemContent, overrides: Partial<ItemRecord> = {}): ItemRecord {
  return {
    ...summary(9),
    versionId: 90,
    content,
    flowId: 1,
    editable: true,
    editCreatesVersion: false,
    actions: ['submit', 'comment'],
    updatedBy: null,
    createdOn: '2026-11-25T09:00:00.000Z',
    ...overrides,
  } as ItemRecord;
}

const page = <T,>(rows: T[], query: PagedQuery) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: 1,
  totalCount: rows.length,
  pageSize: query.pageSize,
  hasPreviousPage: false,
  hasNextPage: false,
});

function singleChoice(): ItemContent {
  let item = blankItem('singleChoice', ['en', 'hi']);
  item = setText(item, 'en', { stem: '<p>Which is prime?</p>' });
  for (const [id, text] of [
    ['A', '2'],
    ['B', '4'],
    ['C', '6'],
    ['D', '8'],
  ])
    item = setText(item, 'en', { choice: id, html: `<p>${text}</p>` });
  for (const id of ['A', 'B', 'C', 'D']) item = setText(item, 'hi', { choice: id, html: `<p>${id}</p>` });
  return setText(item, 'hi', { stem: '<p>कौन सी संख्या अभाज्य है?</p>' });
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['items', 'projects', 'users', 'ui', 'errors']);
});
beforeEach(() => {
  act(() => {
    userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
    selectProject({ projectId: 5, code: 'BOARD', name: 'Board 2027', languages: ['en', 'hi', 'gu', 'fr'], status: 'Active' });
  });
  projects.categories.mockResolvedValue(categories);
  projects.itemTypes.mockResolvedValue([]);
  projects.flows.mockResolvedValue([
    {
      flowId: 1,
      name: 'Item review',
      recordKind: 'item',
      isActive: true,
      states: [],
      definition: { stages: [{ id: 'review', name: 'Peer review', permission: 'ItemReviewer' }] },
    },
  ]);
  items.duplicatesOfStem.mockResolvedValue([]);
  items.comments.mockResolvedValue([]);
});
afterEach(() => {
  vi.clearAllMocks();
  act(() => selectProject(null));
});

describe('item HTML on screen', { timeout: 30_000 }, () => {
  it('should drop scripts, handlers, links, styles and foreign sources, and keep gaps, TeX and MathML', () => {
    const dirty =
      '<p style="color:red" class="x" onclick="alert(1)">Hi<script>alert(2)</script></p><img src="x" onerror="alert(3)"><img src="media:fig.png">' +
      '<a href="javascript:alert(4)">link</a><iframe src="https://evil"></iframe><svg onload="alert(5)"></svg>' +
      '<span data-gap="G1"></span><span data-latex="x^2" data-evil="1"></span><math><mi>x</mi></math>';
    const clean = sanitizeItemHtml(dirty);
    expect(clean).not.toMatch(/script|onerror|onclick|onload|style=|class=|iframe|svg|javascript|<a|data-evil|src="x"/);
    expect(clean).toContain('<p>Hi</p>');
    expect(clean).toContain('src="media:fig.png"');
    expect(clean).toContain('data-gap="G1"');
    expect(clean).toContain('data-latex="x^2"');
    expect(clean).toContain('<math><mi>x</mi></math>');
  });

  it('should show media from resolved URLs and mark unresolved ones', () => {
    render(
      <RichHtml html='<p><img src="media:a.png" alt="A"><img src="media:b.png" alt="B"></p>' media={{ 'a.png': 'blob:http://localhost/1' }} testId="rich" />,
    );
    const rich = screen.getByTestId('rich');
    expect(rich.querySelector('img[alt="A"]')?.getAttribute('src')).toBe('blob:http://localhost/1');
    expect(rich.querySelector('img[alt="B"]')?.hasAttribute('src')).toBe(false);
    expect(rich.querySelector('[data-missing-media="b.png"]')).not.toBeNull();
  });
});

describe('the candidate preview', { timeout: 30_000 }, () => {
  it('should score a response with the shared scorer, in each language, and ask the server for a stored item', async () => {
    const user = userEvent.setup();
    items.score.mockResolvedValue({
      score: 1,
      maxScore: 1,
      minScore: 0,
      outcome: 'correct',
      needsHumanMarking: false,
      template: 'match_correct',
      versionNumber: 1,
    });
    render(
      <I18nextProvider i18n={i18n}>
        <ItemPreview content={singleChoice()} media={{}} stored={{ itemId: 9, versionNumber: 1 }} />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('preview-stem').textContent).toBe('Which is prime?');
    await user.click(screen.getByTestId('preview-option-B'));
    await user.click(screen.getByTestId('preview-check'));
    expect(await screen.findByTestId('preview-score-local')).toHaveTextContent('0 of 1');
    expect(items.score).toHaveBeenCalledWith(9, 'B', 1);
    await user.click(screen.getByTestId('preview-option-A'));
    await user.click(screen.getByTestId('preview-check'));
    await waitFor(() => expect(screen.getByTestId('preview-score-local')).toHaveTextContent('1 of 1'));
    expect(await screen.findByTestId('preview-score-server')).toHaveTextContent('1 of 1');
    await chooseOption(user, within(screen.getByTestId('preview-language')).getByRole('combobox'), 'Hindi');
    expect(screen.getByTestId('preview-stem').textContent).toBe('कौन सी संख्या अभाज्य है?');
    expect(screen.getByTestId('preview-stem').getAttribute('lang')).toBe('hi');
    await user.click(screen.getByText('Right to left'));
    expect(screen.getByTestId('preview-frame').getAttribute('dir')).toBe('rtl');
    await user.click(screen.getByText('Dark'));
    expect(screen.getByTestId('preview-frame').getAttribute('data-mode')).toBe('dark');
  });

  it('should put answer boxes in the gaps of a fill-in-the-blanks stem and score them', async () => {
    const user = userEvent.setup();
    let item = blankItem('fillInBlanks', ['en']) as ItemOf<'fillInBlanks'>;
    item = { ...item, gaps: [{ id: 'G1', answers: [{ text: 'seven', caseSensitive: false }], expectedLength: 8 }] };
    item = setText(item, 'en', { stem: '<p>3 + 4 is <span data-gap="G1"></span>.</p>' }) as ItemOf<'fillInBlanks'>;
    render(
      <I18nextProvider i18n={i18n}>
        <ItemPreview content={item} media={{}} />
      </I18nextProvider>,
    );
    const box = await screen.findByTestId('preview-gap-G1');
    expect(screen.getByTestId('preview-stem').contains(box)).toBe(true);
    await user.type(box, 'Seven');
    expect(box).toHaveFocus();
    await user.click(screen.getByTestId('preview-check'));
    expect(screen.getByTestId('preview-score-local')).toHaveTextContent('1 of 1');
    expect(items.score).not.toHaveBeenCalled();
  });
});

describe('the item list', { timeout: 30_000 }, () => {
  // Runs before the filter test: after that test has chosen and cleared a category through the
  // tree, this dialog's category list showed only its placeholder while its hidden select had
  // every category (seen on a quiet machine, 6 December; not yet understood).
  it('should move the chosen items in bulk and keep the refused ones chosen', async () => {
    items.search.mockImplementation(async (query: PagedQuery) => page([summary(1), summary(2)], query));
    items.bulk.mockResolvedValue({
      succeeded: 1,
      failed: 1,
      results: [
        { itemId: 1, ok: true, status: 'Draft', message: null },
        { itemId: 2, ok: false, status: null, message: 'In review' },
      ],
    });
    const { user } = renderAt('/items', { '/items': <ItemsPage /> });
    await screen.findByTestId('items-table');
    await user.click(screen.getByText('Choose ITM-1'));
    await user.click(screen.getByText('Choose ITM-2'));
    expect(screen.getByTestId('bulk-bar')).toHaveTextContent('2 items chosen');
    await user.click(screen.getByTestId('bulk-moveCategory'));
    const dialog = await screen.findByTestId('bulk-dialog');
    expect(within(dialog).getByTestId('bulk-confirm')).toBeDisabled();
    const categoryField = within(dialog).getByTestId('bulk-category');
    // The project's categories load with the item workspace; on a busy runner they may come after
    // the dialog opens, and the field lists them once they are there (its hidden native select).
    await waitFor(() => expect(categoryField.querySelector('select')?.textContent).toMatch(/Polynomials/), { timeout: 5_000 });
    await chooseOption(user, within(categoryField).getByRole('combobox'), /Polynomials/);
    await user.click(within(dialog).getByTestId('bulk-confirm'));
    await waitFor(() => expect(items.bulk).toHaveBeenCalledWith({ action: 'moveCategory', itemIds: [1, 2], categoryId: 3 }));
    await waitFor(() => expect(screen.getByTestId('bulk-bar')).toHaveTextContent('1 item chosen'));
  });

  it('should keep its filters in the URL and send them to the search', async () => {
    items.search.mockImplementation(async (query: PagedQuery) =>
      page(
        [summary(1), summary(2, { duplicate: { itemId: 1, code: 'ITM-1', status: 'Draft', similarity: 0.91, language: 'en', stemText: 'Question 1' } })],
        query,
      ),
    );
    const { location, user } = renderAt('/items?kind=essay&language=gu&languagePresent=missing', { '/items': <ItemsPage /> });
    await screen.findByTestId('items-table');
    expect(items.search.mock.calls[0][0].filters).toMatchObject({ kind: 'essay', language: 'gu', languagePresent: 'missing' });
    expect(itemSearchBody(items.search.mock.calls[0][0])).toMatchObject({ kind: 'essay', language: 'gu', languagePresent: false });
    expect(screen.getByTestId('duplicate-ITM-2')).toHaveTextContent('Like ITM-1 (91 %)');
    // The category filter is a tree: subjects first, a branch opens with the Right arrow, Enter
    // chooses (a branch stands for its subtree); the retired unit is not offered.
    await waitFor(() => expect(projects.categories).toHaveBeenCalled());
    const picker = within(screen.getByTestId('filter-category')).getByRole('button', { name: 'Category Any category' });
    picker.focus();
    await user.keyboard('{Enter}');
    const tree = await screen.findByRole('tree', { name: 'Category tree' });
    expect(
      within(tree)
        .getAllByRole('treeitem')
        .map((node) => node.getAttribute('aria-expanded')),
    ).toEqual(['false']);
    // The popover puts the focus on its panel once it has opened (a frame later). Focusing the
    // branch before that lost it to the panel, and the arrow went nowhere (a fast machine).
    await waitFor(() => expect(tree.closest('[role=dialog]')?.contains(document.activeElement)).toBe(true));
    const mathematics = within(tree).getByRole('button', { name: 'Mathematics' });
    await waitFor(() => {
      if (document.activeElement !== mathematics) mathematics.focus();
      expect(mathematics).toHaveFocus();
    });
    await user.keyboard('{ArrowRight}');
    // The branch opens through Ark's tree machine: on a loaded runner it took over a second (CI, 6 December).
    await waitFor(() => expect(within(tree).getByRole('button', { name: 'Algebra' })).toBeVisible(), { timeout: 5000 });
    expect(within(tree).queryByText('Old unit')).toBeNull();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(within(tree).getByRole('button', { name: 'Algebra' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.current()).toContain('categoryId=2'));
    expect(items.search.mock.lastCall?.[0].filters.categoryId).toBe(2);
    await waitFor(() => expect(screen.queryByRole('tree')).toBeNull());
    expect(picker).toHaveAccessibleName('Category Mathematics › Algebra');
    await waitFor(() => expect(picker).toHaveFocus());
    // Opened again, the way to the choice is open and the choice is marked; "Any category" clears it.
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('tree', { name: 'Category tree' });
    expect(within(again).getByRole('button', { name: 'Algebra' }).closest('[role=treeitem]')).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('button', { name: 'Any category' }));
    await waitFor(() => expect(location.current()).not.toContain('categoryId'));
    expect(picker).toHaveAccessibleName('Category Any category');
    await chooseOption(user, within(screen.getByTestId('filter-status')).getByRole('combobox'), 'Peer review');
    await waitFor(() => expect(location.current()).toContain('status=review'));
  });

  it('should say when nothing matches, and when the search fails', async () => {
    items.search.mockImplementationOnce(async (query: PagedQuery) => page([], query));
    renderAt('/items?q=zzz', { '/items': <ItemsPage /> });
    expect(await screen.findByText('No item matches these filters')).toBeInTheDocument();
  });
});

describe('the item editor', { timeout: 30_000 }, () => {
  it('should show only the kind’s fields, every language side by side and a missing one as missing', async () => {
    items.get.mockResolvedValue(record(singleChoice()));
    renderAt('/items/9', { '/items/:itemId': <ItemEditorPage /> });
    await screen.findByTestId('kind-fields-singleChoice');
    expect(screen.getByTestId('option-row-A')).toBeInTheDocument();
    expect(screen.queryByTestId('numeric-answer')).toBeNull();
    expect(screen.queryByTestId('word-limit')).toBeNull();
    expect(screen.getByTestId('variant-en')).toBeInTheDocument();
    expect(screen.getByTestId('variant-hi')).toBeInTheDocument();
    expect(screen.getByTestId('variant-missing-gu')).toHaveTextContent('Missing');
    expect(screen.getByTestId('variant-missing-fr')).toBeInTheDocument();
  });

  it('should let a choice item be set to human marking and save it in its marking rules (an essay always is)', async () => {
    items.get.mockResolvedValue(record(singleChoice()));
    items.edit.mockImplementation(async (_id: number, body: { content: ItemContent }) => record(body.content, { version: 2 }));
    const { user } = renderAt('/items/9', { '/items/:itemId': <ItemEditorPage /> });
    await screen.findByTestId('kind-fields-singleChoice');
    const byPerson = screen.getByRole('switch', { name: 'Marked by a person' });
    expect(byPerson).not.toBeChecked();
    await user.click(byPerson);
    expect(byPerson).toBeChecked();
    await user.click(screen.getByTestId('save-item'));
    await waitFor(() =>
      expect(items.edit).toHaveBeenCalledWith(
        9,
        expect.objectContaining({ content: expect.objectContaining({ marking: { correct: 1, wrong: 0, unanswered: 0, byPerson: true } }) }),
      ),
    );
  });

  it('should keep the author’s input after a 409 and say someone else saved first', async () => {
    items.get.mockResolvedValue(record(singleChoice()));
    items.edit.mockRejectedValue({ status: 409, title: 'The item was changed by Vikram Rao.' });
    const { user } = renderAt('/items/9', { '/items/:itemId': <ItemEditorPage /> });
    await screen.findByTestId('kind-fields-singleChoice');
    await user.click(screen.getByText('C is correct'));
    await user.click(screen.getByTestId('save-item'));
    expect(await screen.findByTestId('conflict')).toHaveTextContent('Someone else saved this item first');
    expect(items.edit).toHaveBeenCalledWith(9, expect.objectContaining({ version: 1, content: expect.objectContaining({ correct: 'C' }) }));
    expect(screen.getByTestId('correct-C').getAttribute('data-state')).toBe('checked');
    // The refused save resets the item workspace slice (spec §4: a failure while storing).
    await waitFor(() => expect(itemWorkspaceStore.getSnapshot().context.selected).toBeNull());
  });

  it('should show an approved item read-only and save an edit as the next version', async () => {
    const approved = record(singleChoice(), { status: 'Approved', editable: true, editCreatesVersion: true, actions: ['retire', 'comment'] });
    items.get.mockResolvedValue(approved);
    items.edit.mockImplementation(async (_id: number, body: { content: ItemContent }) => record(body.content, { versionNumber: 2, version: 2 }));
    const { user } = renderAt('/items/9', { '/items/:itemId': <ItemEditorPage /> });
    await screen.findByTestId('read-only-note');
    expect(screen.queryByTestId('save-item')).toBeNull();
    await user.click(screen.getByTestId('edit-new-version'));
    await user.click(screen.getByText('D is correct'));
    await user.click(screen.getByTestId('save-item'));
    await waitFor(() => expect(screen.getByTestId('item-version')).toHaveTextContent('Version 2'));
    // The item workspace slice holds the item open in the editor, as the server last answered it.
    expect(itemWorkspaceStore.getSnapshot().context.selected).toMatchObject({ itemId: 9, kind: 'singleChoice', versionNumber: 2 });
  });

  it('should offer exactly the review outcomes the server lists', async () => {
    items.get.mockResolvedValue(record(singleChoice(), { status: 'review', editable: false, actions: ['approve', 'requestChanges', 'comment'] }));
    items.review.mockResolvedValue({
      fromStatus: 'review',
      toStatus: 'Draft',
      record: record(singleChoice(), { status: 'Draft', actions: ['submit', 'comment'] }),
    });
    const { user } = renderAt('/items/9', { '/items/:itemId': <ItemEditorPage /> });
    await screen.findByTestId('item-status');
    expect(screen.getByTestId('item-status')).toHaveTextContent('Peer review');
    await user.click(screen.getByRole('tab', { name: 'Review' }));
    const panel = await screen.findByTestId('review-panel');
    expect(within(panel).queryByTestId('review-submit')).toBeNull();
    expect(within(panel).queryByTestId('review-retire')).toBeNull();
    await user.click(within(panel).getByTestId('review-requestChanges'));
    expect(within(panel).getByText('Write what should change.')).toBeInTheDocument();
    expect(items.review).not.toHaveBeenCalled();
    await user.type(within(panel).getByRole('textbox', { name: /Comment/ }), 'Reword B');
    await user.click(within(panel).getByTestId('review-requestChanges'));
    await waitFor(() => expect(items.review).toHaveBeenCalledWith(9, { action: 'requestChanges', comment: 'Reword B', version: 1 }));
    await waitFor(() => expect(screen.getByTestId('item-status')).toHaveTextContent('Draft'));
  });

  it('should list the category tree in order with its paths', () => {
    expect(categoryOptions(categories).map((o) => [o.value, o.depth, o.path])).toEqual([
      ['1', 0, 'Mathematics'],
      ['2', 1, 'Mathematics › Algebra'],
      ['3', 2, 'Mathematics › Algebra › Polynomials'],
    ]);
  });
});
