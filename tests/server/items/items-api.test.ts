import { expect, it } from 'vitest';
import type { ItemContent } from '#machines/items/item-schema.ts';
import {
  essay,
  fillInBlanks,
  matching,
  multipleChoice,
  numeric,
  ordering,
  sampleItems,
  shortText,
  singleChoice,
  trueFalse,
} from '#tests/machines/items/support/sample-items.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { activateProject, call, sendProjectEvent } from '../exams/workspace-kit.ts';
import { createItem, itemBench, review, type Json } from './item-kit.ts';

const withStem = (content: ItemContent, stem: string): ItemContent =>
  ({ ...content, variants: { ...content.variants, en: { ...content.variants.en, stem } } }) as ItemContent;

describeEachDatabase('item bank API', (get) => {
  it('should create an item of every kind, answer it with its version, and refuse bad content with 400', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    for (const content of sampleItems) {
      const item = await createItem(app, bench, content);
      expect(item).toMatchObject({
        kind: content.kind,
        status: 'Draft',
        versionNumber: 1,
        version: 1,
        categoryName: 'Science',
        languages: ['en', 'hi'],
        missingLanguages: ['gu'],
      });
      expect(item.author).toEqual({ userId: bench.author.id, name: 'Priya Nair' });
      expect(item.content).toEqual(content);
      expect(item.code).toMatch(/^ITM-\d{6}$/);
      expect(item.actions).toEqual(['submit', 'comment']);
      const got = await call(app, bench.author, 'GET', `/api/v1/item/${item.itemId}`, { project: bench.projectId });
      expect(got.headers.etag).toBe('"1"');
    }
    const broken = await call(app, bench.author, 'POST', '/api/v1/item', {
      project: bench.projectId,
      body: { categoryId: bench.categoryId, difficulty: 'easy', content: { ...singleChoice, correct: 'Z' } },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors['content.correct']).toEqual(['the correct option is not one of the options']);
    const unknownKind = await call(app, bench.author, 'POST', '/api/v1/item', {
      project: bench.projectId,
      body: { categoryId: bench.categoryId, difficulty: 'easy', content: { kind: 'hotspot' } },
    });
    expect(unknownKind.statusCode).toBe(400);
    const foreignCategory = await call(app, bench.author, 'POST', '/api/v1/item', {
      project: bench.projectId,
      body: { categoryId: 999_999, difficulty: 'easy', content: trueFalse },
    });
    expect(foreignCategory.statusCode).toBe(400);
    expect(foreignCategory.json().errors.categoryId[0]).toMatch(/not a category of this project/);
  });

  it('should keep false and 0 as answers (no coercion) and score through the one scorer', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const tf = await createItem(app, bench, trueFalse);
    const wrong = await call(app, bench.reviewer, 'POST', `/api/v1/item/${tf.itemId}/score`, { project: bench.projectId, body: { responses: false } });
    expect(wrong.json()).toMatchObject({ score: -1, maxScore: 4, minScore: -1, outcome: 'wrong', versionNumber: 1 });
    const num = await createItem(app, bench, { ...numeric, answer: 0, tolerance: { mode: 'absolute', value: 0 } });
    const zero = await call(app, bench.reviewer, 'POST', `/api/v1/item/${num.itemId}/score`, { project: bench.projectId, body: { responses: 0 } });
    expect(zero.json()).toMatchObject({ score: 4, outcome: 'correct' });
    const shape = await call(app, bench.reviewer, 'POST', `/api/v1/item/${tf.itemId}/score`, { project: bench.projectId, body: { responses: ['A'] } });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().messages[0]).toMatch(/does not fit this trueFalse item/);
    const garbage = await call(app, bench.reviewer, 'POST', `/api/v1/item/${tf.itemId}/score`, {
      project: bench.projectId,
      body: { responses: { a: { b: 1 } } },
    });
    expect(garbage.statusCode).toBe(400);
    const essayItem = await createItem(app, bench, essay);
    const marked = await call(app, bench.reviewer, 'POST', `/api/v1/item/${essayItem.itemId}/score`, {
      project: bench.projectId,
      body: { responses: 'Plants make food from light.' },
    });
    expect(marked.json()).toMatchObject({ score: null, outcome: 'awaitingMarking', needsHumanMarking: true });
    const mc = await createItem(app, bench, multipleChoice);
    const mcScore = await call(app, bench.reviewer, 'POST', `/api/v1/item/${mc.itemId}/score`, { project: bench.projectId, body: { responses: ['A', 'C'] } });
    expect(mcScore.json()).toMatchObject({ score: 4, outcome: 'correct' });
  });

  it('should sanitize every rich field when storing', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const xss = '<img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">link</a><p style="color:red" onclick="x()">ok</p>';
    const content: ItemContent = {
      ...singleChoice,
      variants: {
        en: { stem: `<p>Stem</p>${xss}`, choices: { A: `A${xss}`, B: 'B', C: 'C', D: 'D' } },
        hi: { stem: '<svg onload="alert(4)"></svg><p>हिंदी</p>', choices: { A: 'क', B: 'ख', C: 'ग', D: 'घ' } },
      },
    };
    const item = await createItem(app, bench, content);
    const stored = JSON.stringify(item.content);
    for (const bad of ['onerror', '<script', 'javascript:', 'onclick', 'style=', '<svg', 'onload', 'alert(2)']) expect(stored).not.toContain(bad);
    expect(item.content.variants.en.stem).toBe('<p>Stem</p><img />link<p>ok</p>');
    const essayItem = await createItem(app, bench, {
      ...essay,
      variants: { en: { stem: '<p>Write</p>', rubric: '<p>Rubric</p><iframe src="https://evil"></iframe>' } },
    });
    expect(essayItem.content.variants.en.rubric).toBe('<p>Rubric</p>');
  });

  it('should edit a draft in place, version an approved item, keep the approved version immutable, and diff versions', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const item = await createItem(app, bench, singleChoice, { code: 'PHY-001' });
    const edited = await call(app, bench.author, 'PUT', `/api/v1/item/${item.itemId}`, {
      project: bench.projectId,
      body: { version: 1, content: withStem(singleChoice, '<p>Which planet is nearest the Sun?</p>') },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ versionNumber: 1, version: 2, status: 'Draft' });
    expect(edited.headers.etag).toBe('"2"');
    // A stale edit names who changed it.
    const stale = await call(app, bench.admin, 'PUT', `/api/v1/item/${item.itemId}`, { project: bench.projectId, body: { version: 1, difficulty: 'hard' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().messages[0]).toMatch(/^This item was changed by Priya Nair at .* \(version 2; your edit was made on version 1\)/);
    const noVersion = await call(app, bench.author, 'PUT', `/api/v1/item/${item.itemId}`, { project: bench.projectId, body: { difficulty: 'hard' } });
    expect(noVersion.statusCode).toBe(400);

    expect((await review(app, bench, bench.author, item.itemId, 'submit')).statusCode).toBe(200);
    const inReview = await call(app, bench.author, 'PUT', `/api/v1/item/${item.itemId}`, {
      project: bench.projectId,
      headers: { 'if-match': '"3"' },
      body: { content: singleChoice },
    });
    expect(inReview.statusCode).toBe(409);
    expect(inReview.json().messages[0]).toMatch(/in review \(review\)/);
    expect((await review(app, bench, bench.reviewer, item.itemId, 'approve')).statusCode).toBe(200);
    const approved = await review(app, bench, bench.admin, item.itemId, 'approve');
    expect(approved.json()).toMatchObject({ fromStatus: 'approval', toStatus: 'Approved' });
    const v1Id = approved.json().record.approvedVersionId;
    expect(v1Id).toBe(approved.json().record.versionId);

    const v2 = await call(app, bench.author, 'PUT', `/api/v1/item/${item.itemId}`, {
      project: bench.projectId,
      body: {
        version: approved.json().record.version,
        content: { ...withStem(singleChoice, '<p>Which planet is nearest the Sun?</p>'), marking: { correct: 4, wrong: -2, unanswered: 0 } },
      },
    });
    expect(v2.statusCode).toBe(200);
    expect(v2.json()).toMatchObject({ versionNumber: 2, status: 'Draft', approvedVersionId: v1Id, editCreatesVersion: false });
    expect(v2.json().versionId).not.toBe(v1Id);

    const pinned = (await call(app, bench.author, 'GET', `/api/v1/item/version/${v1Id}`, { project: bench.projectId })).json() as Json;
    expect(pinned).toMatchObject({ versionNumber: 1, status: 'approved', itemId: item.itemId });
    expect(pinned.content.marking.wrong).toBe(-1);
    const versions = (await call(app, bench.author, 'GET', `/api/v1/item/${item.itemId}/versions`, { project: bench.projectId })).json() as Json[];
    expect(versions.map((v) => [v.versionNumber, v.status])).toEqual([
      [2, 'draft'],
      [1, 'approved'],
    ]);
    expect(versions[1].approvedBy).toEqual({ userId: bench.admin.id, name: 'Anita Admin' });
    const diff = (await call(app, bench.author, 'GET', `/api/v1/item/${item.itemId}/diff?from=1&to=2`, { project: bench.projectId })).json() as Json;
    expect(diff.changes).toEqual([{ path: 'marking.wrong', change: 'changed', before: -1, after: -2 }]);
    // Scoring a pinned version uses that version's marking.
    const old = await call(app, bench.author, 'POST', `/api/v1/item/${item.itemId}/score`, {
      project: bench.projectId,
      body: { responses: 'B', versionNumber: 1 },
    });
    expect(old.json().score).toBe(-1);
    const latest = await call(app, bench.author, 'POST', `/api/v1/item/${item.itemId}/score`, { project: bench.projectId, body: { responses: 'B' } });
    expect(latest.json()).toMatchObject({ score: -2, versionNumber: 2 });

    // The database itself refuses to change an approved version.
    await expect(get().db.query(`update item_versions set content = '{}'::jsonb where id = $1`, [v1Id])).rejects.toThrow(/approved and cannot change/);
    const missing = await call(app, bench.author, 'GET', `/api/v1/item/${item.itemId}/diff?from=1&to=9`, { project: bench.projectId });
    expect(missing.statusCode).toBe(404);
  });

  it('should let exactly one of concurrent edits on one version win, and one of concurrent approvals', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const item = await createItem(app, bench, singleChoice);
    const edits = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(app, bench.author, 'PUT', `/api/v1/item/${item.itemId}`, {
          project: bench.projectId,
          body: { version: 1, content: withStem(singleChoice, `<p>Which planet is closest to the Sun? (${i})</p>`) },
        }),
      ),
    );
    expect(edits.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    await review(app, bench, bench.author, item.itemId, 'submit');
    const approvals = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(app, bench.manager, 'POST', `/api/v1/item/${item.itemId}/review`, { project: bench.projectId, body: { action: 'approve', version: 3 } }),
      ),
    );
    expect(approvals.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(approvals.filter((r) => r.statusCode === 409)).toHaveLength(5);
    const got = (await call(app, bench.author, 'GET', `/api/v1/item/${item.itemId}`, { project: bench.projectId })).json() as Json;
    expect(got.status).toBe('approval');
  });

  it('should list with every filter, text search, paging and totalCount', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const gu = { ...trueFalse, variants: { ...trueFalse.variants, gu: { stem: '<p>દરિયાની સપાટીએ પાણી 100 °C પર ઉકળે છે.</p>' } } };
    const a = await createItem(app, bench, gu, { difficulty: 'easy' });
    const b = await createItem(app, bench, numeric, { categoryId: bench.subCategoryId, difficulty: 'hard' });
    const c = await createItem(app, bench, shortText, { categoryId: bench.otherCategoryId }, bench.admin);
    await createItem(app, bench, ordering);
    await review(app, bench, bench.author, b.itemId, 'submit');
    const search = async (body: Json) => {
      const res = await call(app, bench.reviewer, 'POST', '/api/v1/item/search', { project: bench.projectId, body });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Json;
    };
    const ids = (page: Json) => page.data.map((r: Json) => r.itemId).sort((x: number, y: number) => x - y);
    expect((await search({})).totalCount).toBe(4);
    expect(ids(await search({ kind: 'numeric' }))).toEqual([b.itemId]);
    expect(ids(await search({ categoryId: bench.categoryId }))).toEqual(expect.arrayContaining([a.itemId, b.itemId]));
    expect((await search({ categoryId: bench.categoryId })).totalCount).toBe(3);
    expect(ids(await search({ categoryId: bench.categoryId, includeSubcategories: false })).includes(b.itemId)).toBe(false);
    expect(ids(await search({ difficulty: 'hard' }))).toEqual([b.itemId]);
    expect(ids(await search({ status: 'review' }))).toEqual([b.itemId]);
    expect(ids(await search({ language: 'gu', languagePresent: true }))).toEqual([a.itemId]);
    expect((await search({ language: 'gu', languagePresent: false })).totalCount).toBe(3);
    expect(ids(await search({ authorId: bench.admin.id }))).toEqual([c.itemId]);
    expect(ids(await search({ keyword: 'FRANCE' }))).toEqual([c.itemId]);
    expect(ids(await search({ keyword: 'राजधानी' }))).toEqual([c.itemId]);
    expect(ids(await search({ keyword: '100%' }))).toEqual([]);
    // Every total the facet counters give (no keyword, no author) is the number of rows listed.
    const filters: Json[] = [
      {},
      { kind: 'trueFalse' },
      { status: 'Draft', difficulty: 'easy' },
      { categoryId: bench.categoryId, language: 'hi', languagePresent: false },
      { categoryId: bench.categoryId, includeSubcategories: false, status: 'Draft' },
      { categoryId: bench.subCategoryId, kind: 'numeric', status: 'review' },
      { language: 'en', languagePresent: true, difficulty: 'medium' },
      { duplicatesOnly: true },
      { kind: 'essay' },
    ];
    for (const filter of filters) {
      const all = await search({ ...filter, pageSize: 100 });
      expect(all.totalCount, JSON.stringify(filter)).toBe(all.data.length);
    }
    const page = await search({ pageSize: 3, pageNumber: 2, orderBy: ['code asc'] });
    expect(page).toMatchObject({ totalCount: 4, totalPages: 2, currentPage: 2, hasPreviousPage: true, hasNextPage: false });
    expect(page.data).toHaveLength(1);
    const beyond = await search({ pageSize: 3, pageNumber: 5 });
    expect(beyond).toMatchObject({ totalCount: 4, data: [] });
    const badOrder = await call(app, bench.reviewer, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { orderBy: ['secret desc'] } });
    expect(badOrder.statusCode).toBe(400);
    const noLang = await call(app, bench.reviewer, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { languagePresent: false } });
    expect(noLang.statusCode).toBe(400);
    // Another project's items are not there, nor reachable by id.
    const outsider = await call(app, bench.outsider, 'POST', '/api/v1/item/search', { project: bench.projectId, body: {} });
    expect(outsider.statusCode).toBe(404);
    const other = await itemBench(app);
    const foreign = await call(app, other.manager, 'GET', `/api/v1/item/${a.itemId}`, { project: other.projectId });
    expect(foreign.statusCode).toBe(404);
  });

  it('should flag possible duplicates when stored, in the list and while authoring', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const first = await createItem(app, bench, withStem(singleChoice, '<p>Which planet of the solar system is closest to the Sun?</p>'));
    expect(first.duplicate).toBeNull();
    const second = await createItem(app, bench, withStem(singleChoice, '<p>Which planet of the solar system is the closest to the Sun?</p>'));
    expect(second.duplicate).toMatchObject({ itemId: first.itemId, language: 'en' });
    expect(second.duplicate.similarity).toBeGreaterThan(0.6);
    await createItem(app, bench, withStem(singleChoice, '<p>Name the gas that plants absorb during photosynthesis.</p>'));
    const flagged = (await call(app, bench.author, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { duplicatesOnly: true } })).json() as Json;
    expect(flagged.data.map((r: Json) => r.itemId).sort()).toEqual([first.itemId, second.itemId].sort());
    const authoring = await call(app, bench.author, 'POST', '/api/v1/item/duplicates', {
      project: bench.projectId,
      body: { stem: '<p>Which planet in the solar system is closest to the Sun?</p>' },
    });
    expect(
      authoring
        .json()
        .map((d: Json) => d.itemId)
        .sort(),
    ).toEqual([first.itemId, second.itemId].sort());
    const own = (await call(app, bench.author, 'GET', `/api/v1/item/${first.itemId}/duplicates`, { project: bench.projectId })).json() as Json[];
    expect(own.map((d) => d.itemId)).toEqual([second.itemId]);
    const none = await call(app, bench.author, 'POST', '/api/v1/item/duplicates', {
      project: bench.projectId,
      body: { stem: 'Explain the water cycle with a diagram.' },
    });
    expect(none.json()).toEqual([]);
  });

  it('should run bulk actions item by item and report each', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const items = [];
    for (const content of [fillInBlanks, matching, ordering]) items.push(await createItem(app, bench, content));
    const moved = await call(app, bench.author, 'POST', '/api/v1/item/bulk', {
      project: bench.projectId,
      body: { action: 'moveCategory', itemIds: [items[0].itemId, items[1].itemId, 999_999], categoryId: bench.otherCategoryId },
    });
    expect(moved.json()).toMatchObject({ succeeded: 2, failed: 1 });
    expect(moved.json().results[2]).toEqual({ itemId: 999_999, ok: false, status: null, message: 'Item not found.' });
    const submitted = await call(app, bench.author, 'POST', '/api/v1/item/bulk', {
      project: bench.projectId,
      body: { action: 'submit', itemIds: items.map((i) => i.itemId) },
    });
    expect(submitted.json()).toMatchObject({ succeeded: 3, failed: 0 });
    expect(submitted.json().results.map((r: Json) => r.status)).toEqual(['review', 'review', 'review']);
    const byAuthor = await call(app, bench.author, 'POST', '/api/v1/item/bulk', {
      project: bench.projectId,
      body: { action: 'retire', itemIds: [items[0].itemId] },
    });
    expect(byAuthor.json().results[0]).toMatchObject({ ok: false });
    expect(byAuthor.json().results[0].message).toMatch(/^You may not retire this item/);
    const retired = await call(app, bench.admin, 'POST', '/api/v1/item/bulk', {
      project: bench.projectId,
      body: { action: 'retire', itemIds: [items[0].itemId] },
    });
    expect(retired.json()).toMatchObject({ succeeded: 1, results: [{ status: 'Retired' }] });
    const noCategory = await call(app, bench.author, 'POST', '/api/v1/item/bulk', {
      project: bench.projectId,
      body: { action: 'moveCategory', itemIds: [items[1].itemId] },
    });
    expect(noCategory.statusCode).toBe(400);
    const listed = (
      await call(app, bench.author, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { categoryId: bench.otherCategoryId } })
    ).json() as Json;
    expect(listed.totalCount).toBe(2);
    // The facet counters behind totalCount agree with the rows after creations, moves and reviews.
    const facets = `category_id::int, kind, difficulty, status, coalesce(item_type_id, 0)::int as item_type, languages, duplicate_item_id is not null as duplicate`;
    const counted = await get().db.query(
      `select ${facets}, count(*)::int as n from items where project_id = $1 group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`,
      [bench.projectId],
    );
    const kept = await get().db.query(
      `select category_id::int, kind, difficulty, status, item_type_id::int as item_type, languages, duplicate, n
       from item_facet_counts where project_id = $1 and n <> 0 order by 1, 2, 3, 4, 5, 6, 7`,
      [bench.projectId],
    );
    expect(kept.rows).toEqual(counted.rows);
    expect(
      ((await call(app, bench.author, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { status: 'review' } })).json() as Json).totalCount,
    ).toBe(2);
    const history = (await call(app, bench.author, 'GET', `/api/v1/item/${items[0].itemId}/comments`, { project: bench.projectId })).json() as Json[];
    expect(history.map((h) => [h.action, h.fromStatus, h.toStatus])).toEqual([
      ['submit', 'Draft', 'review'],
      ['retire', 'review', 'Retired'],
    ]);
  });

  it('should refuse authoring to those without an item permission and in a closed project', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const reviewerCreates = await call(app, bench.reviewer, 'POST', '/api/v1/item', {
      project: bench.projectId,
      body: { categoryId: bench.categoryId, difficulty: 'easy', content: trueFalse },
    });
    expect(reviewerCreates.statusCode).toBe(403);
    expect(reviewerCreates.json().messages).toEqual(['Only item authors and project admins write items.']);
    const missingHeader = await call(app, bench.author, 'POST', '/api/v1/item/search', { body: {} });
    expect(missingHeader.statusCode).toBe(400);
    const item = await createItem(app, bench, trueFalse);
    await activateProject(app, bench.manager, bench.projectId);
    expect((await sendProjectEvent(app, bench.manager, bench.projectId, 'project.close')).statusCode).toBe(200);
    const closed = await call(app, bench.author, 'POST', '/api/v1/item', {
      project: bench.projectId,
      body: { categoryId: bench.categoryId, difficulty: 'easy', content: trueFalse },
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().messages).toEqual(['A project in status Closed cannot change its items.']);
    const submit = await review(app, bench, bench.author, item.itemId, 'submit');
    expect(submit.statusCode).toBe(409);
    const got = (await call(app, bench.author, 'GET', `/api/v1/item/${item.itemId}`, { project: bench.projectId })).json() as Json;
    expect(got.actions).toEqual(['comment']);
  });
});
