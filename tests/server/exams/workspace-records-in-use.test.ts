import { expect, it } from 'vitest';
import { trueFalse } from '#tests/machines/items/support/sample-items.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createItem, itemBench, itemFlowDefinition, review, type Json } from '../items/item-kit.ts';
import { call } from './workspace-kit.ts';

/**
 * Configuration that records stand on (docs/decisions/0200): a category that items use is never
 * deleted (the refusal says what uses it), and editing a flow says beforehand how many records
 * stand in each stage the edit removes and where they will go. Expectations written by hand.
 */
describeEachDatabase('exam workspace: configuration records stand on', (get) => {
  it('should refuse deleting a category that items use, counting them, and delete it once they are gone', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const first = await createItem(app, bench, trueFalse, { categoryId: bench.otherCategoryId });
    await createItem(app, bench, trueFalse, { categoryId: bench.otherCategoryId });
    const refused = await call(app, bench.manager, 'DELETE', `/api/v1/category/${bench.otherCategoryId}`, { project: bench.projectId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messages).toEqual(['The category "Mathematics" is in use (2 items): retire it instead.']);
    // A parent with a subcategory and items says both.
    await createItem(app, bench, trueFalse, { categoryId: bench.categoryId });
    const parent = await call(app, bench.manager, 'DELETE', `/api/v1/category/${bench.categoryId}`, { project: bench.projectId });
    expect(parent.json().messages).toEqual(['The category "Science" is in use (1 subcategory, 1 item): retire it instead.']);
    // Retiring stays possible and keeps the items where they are.
    const retired = await call(app, bench.manager, 'PUT', `/api/v1/category/${bench.otherCategoryId}`, {
      project: bench.projectId,
      body: { isRetired: true, version: 1 },
    });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json()).toMatchObject({ isRetired: true, version: 2 });
    const item = (await call(app, bench.manager, 'GET', `/api/v1/item/${first.itemId}`, { project: bench.projectId })).json() as Json;
    expect(item.categoryId).toBe(bench.otherCategoryId);
    // The subcategory nobody uses can go.
    const unused = await call(app, bench.manager, 'DELETE', `/api/v1/category/${bench.subCategoryId}`, { project: bench.projectId });
    expect(unused.json()).toEqual({ deleted: true });
  });

  it('should preview a flow edit: per removed stage where its records go and how many, without changing anything', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const atApproval = await createItem(app, bench, trueFalse);
    const alsoAtApproval = await createItem(app, bench, trueFalse);
    const atReview = await createItem(app, bench, trueFalse);
    await createItem(app, bench, trueFalse); // stays in Draft
    for (const id of [atApproval.itemId, alsoAtApproval.itemId]) for (const step of ['submit', 'approve']) await review(app, bench, bench.manager, id, step);
    await review(app, bench, bench.manager, atReview.itemId, 'submit');

    const onlyFinal = { ...itemFlowDefinition, stages: [{ id: 'final', name: 'Final approval', permission: 'ProjectAdmin' }] };
    const preview = await call(app, bench.manager, 'POST', `/api/v1/flow/${bench.flowId}/preview`, {
      project: bench.projectId,
      body: { definition: onlyFinal },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({
      version: 1,
      stageMoves: [
        { from: 'review', fromName: 'Peer review', to: 'Draft', toName: 'Draft', records: 1 },
        { from: 'approval', fromName: 'Approval', to: 'Draft', toName: 'Draft', records: 2 },
      ],
      affectedRecords: 3,
    });
    // Nothing moved, the flow is unchanged.
    const item = (await call(app, bench.manager, 'GET', `/api/v1/item/${atApproval.itemId}`, { project: bench.projectId })).json() as Json;
    expect(item.status).toBe('approval');
    const flows = (await call(app, bench.manager, 'GET', '/api/v1/flow', { project: bench.projectId })).json() as Json[];
    expect(flows.find((f) => f.flowId === bench.flowId)).toMatchObject({ version: 1, states: ['Draft', 'review', 'approval', 'Approved', 'Retired'] });

    // Keeping peer review: only the approval stage moves, back to review (never forward).
    const keepReview = { ...itemFlowDefinition, stages: [itemFlowDefinition.stages[0], { id: 'final', name: 'Final approval', permission: 'ProjectAdmin' }] };
    const second = await call(app, bench.manager, 'POST', `/api/v1/flow/${bench.flowId}/preview`, {
      project: bench.projectId,
      body: { definition: keepReview },
    });
    expect(second.json()).toEqual({
      version: 1,
      stageMoves: [{ from: 'approval', fromName: 'Approval', to: 'review', toName: 'Peer review', records: 2 }],
      affectedRecords: 2,
    });
    // Saving does what the preview said.
    const saved = await call(app, bench.manager, 'PUT', `/api/v1/flow/${bench.flowId}`, {
      project: bench.projectId,
      body: { version: 1, definition: keepReview },
    });
    expect(saved.json().stageMoves).toEqual([{ from: 'approval', to: 'review' }]);
    const statuses = await Promise.all(
      [atApproval, alsoAtApproval, atReview].map(
        async (i) => ((await call(app, bench.manager, 'GET', `/api/v1/item/${i.itemId}`, { project: bench.projectId })).json() as Json).status,
      ),
    );
    expect(statuses).toEqual(['review', 'review', 'review']);
    // An edit that removes no stage moves nothing.
    const none = await call(app, bench.manager, 'POST', `/api/v1/flow/${bench.flowId}/preview`, { project: bench.projectId, body: { definition: keepReview } });
    expect(none.json()).toEqual({ version: 2, stageMoves: [], affectedRecords: 0 });
  });

  it('should refuse a preview of an invalid definition with the reason, and of another project’s flow with 404', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const other = await itemBench(app);
    const bad = await call(app, bench.manager, 'POST', `/api/v1/flow/${bench.flowId}/preview`, {
      project: bench.projectId,
      body: { definition: { ...itemFlowDefinition, stages: [] } },
    });
    expect(bad.statusCode).toBe(400);
    const foreign = await call(app, bench.manager, 'POST', `/api/v1/flow/${other.flowId}/preview`, {
      project: bench.projectId,
      body: { definition: itemFlowDefinition },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().messages).toEqual(['Flow not found.']);
    const noHeader = await call(app, bench.manager, 'POST', `/api/v1/flow/${bench.flowId}/preview`, { body: { definition: itemFlowDefinition } });
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().errors.ProjectId).toEqual(['The ProjectId header is required.']);
  });

  it("should save an item type's settings on its version and refuse a setting its kind does not take (the stepper's settings, 0203)", async () => {
    const { app } = get();
    const bench = await itemBench(app, { flow: false });
    const essay = (
      await call(app, bench.manager, 'POST', '/api/v1/itemtype', {
        project: bench.projectId,
        body: { name: 'Long answer', kind: 'essay', settings: { wordLimit: 250 }, marking: { correct: 5, wrong: 0, unanswered: 0 } },
      })
    ).json() as Json;
    const saved = await call(app, bench.manager, 'PUT', `/api/v1/itemtype/${essay.itemTypeId}`, {
      project: bench.projectId,
      body: { settings: { wordLimit: 400 }, version: 1 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ settings: { wordLimit: 400 }, version: 2 });
    const wrong = await call(app, bench.manager, 'PUT', `/api/v1/itemtype/${essay.itemTypeId}`, {
      project: bench.projectId,
      body: { settings: { shuffle: true }, version: 2 },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ 'settings.shuffle': ['shuffle does not apply to essay (it takes wordLimit).'] });
    const multi = (
      await call(app, bench.manager, 'POST', '/api/v1/itemtype', {
        project: bench.projectId,
        body: {
          name: 'Multiple correct',
          kind: 'multipleChoice',
          settings: { shuffle: true, partial: null, maxChoices: 0 },
          marking: { correct: 4, wrong: -2, unanswered: 0 },
        },
      })
    ).json() as Json;
    const partial = await call(app, bench.manager, 'PUT', `/api/v1/itemtype/${multi.itemTypeId}`, {
      project: bench.projectId,
      body: { settings: { shuffle: false, partial: { perCorrect: 5, perWrong: 0, wrongCancels: true }, maxChoices: 0 }, version: 1 },
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().errors).toEqual({ 'settings.partial.perCorrect': ['perCorrect cannot exceed the marks for a correct answer.'] });
  });
});
