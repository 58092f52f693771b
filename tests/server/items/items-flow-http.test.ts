import { expect, it } from 'vitest';
import { trueFalse } from '#tests/machines/items/support/sample-items.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call } from '../exams/workspace-kit.ts';
import { createItem, itemBench, itemFlowDefinition, review, type Json } from './item-kit.ts';

/**
 * Flow enforcement over HTTP (docs/decisions/0110: expectations written by hand, not derived from
 * the machine). The flow: Draft —submit (ItemAuthor)→ review —approve (ItemReviewer)→ approval
 * —approve (ProjectAdmin)→ Approved; request changes at a stage by that stage's permission (back
 * to Draft); retire by ProjectAdmin from anywhere but Retired. The tenant manager holds every
 * exam permission. A cell is the HTTP status and, on 200, where the item goes.
 */
type Role = 'author' | 'reviewer' | 'admin' | 'manager';
type Status = 'Draft' | 'review' | 'approval' | 'Approved' | 'Retired';
type Action = 'submit' | 'approve' | 'requestChanges' | 'retire';
type Cell = 403 | 409 | Status;

const ROLES: Role[] = ['author', 'reviewer', 'admin', 'manager'];
// prettier-ignore
const expected: Record<Status, Record<Action, Record<Role, Cell>>> = {
  Draft: {
    submit:         { author: 'review', reviewer: 403, admin: 403, manager: 'review' },
    approve:        { author: 409, reviewer: 409, admin: 409, manager: 409 },
    requestChanges: { author: 409, reviewer: 409, admin: 409, manager: 409 },
    retire:         { author: 403, reviewer: 403, admin: 'Retired', manager: 'Retired' },
  },
  review: {
    submit:         { author: 409, reviewer: 409, admin: 409, manager: 409 },
    approve:        { author: 403, reviewer: 'approval', admin: 403, manager: 'approval' },
    requestChanges: { author: 403, reviewer: 'Draft', admin: 403, manager: 'Draft' },
    retire:         { author: 403, reviewer: 403, admin: 'Retired', manager: 'Retired' },
  },
  approval: {
    submit:         { author: 409, reviewer: 409, admin: 409, manager: 409 },
    approve:        { author: 403, reviewer: 403, admin: 'Approved', manager: 'Approved' },
    requestChanges: { author: 403, reviewer: 403, admin: 'Draft', manager: 'Draft' },
    retire:         { author: 403, reviewer: 403, admin: 'Retired', manager: 'Retired' },
  },
  Approved: {
    submit:         { author: 409, reviewer: 409, admin: 409, manager: 409 },
    approve:        { author: 409, reviewer: 409, admin: 409, manager: 409 },
    requestChanges: { author: 409, reviewer: 409, admin: 409, manager: 409 },
    retire:         { author: 403, reviewer: 403, admin: 'Retired', manager: 'Retired' },
  },
  Retired: {
    submit:         { author: 409, reviewer: 409, admin: 409, manager: 409 },
    approve:        { author: 409, reviewer: 409, admin: 409, manager: 409 },
    requestChanges: { author: 409, reviewer: 409, admin: 409, manager: 409 },
    retire:         { author: 409, reviewer: 409, admin: 409, manager: 409 },
  },
};
/** How the manager brings a new item to each status. */
const pathTo: Record<Status, Action[]> = {
  Draft: [],
  review: ['submit'],
  approval: ['submit', 'approve'],
  Approved: ['submit', 'approve', 'approve'],
  Retired: ['retire'],
};

describeEachDatabase('item flow over HTTP', (get) => {
  it('should take exactly the review actions of the independent table, offer exactly those, and refuse the rest with 403 / 409', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const users = { author: bench.author, reviewer: bench.reviewer, admin: bench.admin, manager: bench.manager };
    const failures: string[] = [];
    for (const status of Object.keys(expected) as Status[]) {
      // What each role is offered at this status is what the table lets it do.
      const probe = await createItem(app, bench, trueFalse);
      for (const step of pathTo[status])
        expect((await review(app, bench, bench.manager, probe.itemId, step, step === 'requestChanges' ? 'x' : undefined)).statusCode).toBe(200);
      for (const role of ROLES) {
        const offered = ((await call(app, users[role], 'GET', `/api/v1/item/${probe.itemId}`, { project: bench.projectId })).json() as Json).actions.filter(
          (a: string) => a !== 'comment',
        );
        const allowed = (Object.keys(expected[status]) as Action[]).filter((action) => typeof expected[status][action][role] === 'string');
        if (JSON.stringify(offered) !== JSON.stringify(allowed)) failures.push(`${status}/${role}: offered ${offered} expected ${allowed}`);
      }
      for (const action of Object.keys(expected[status]) as Action[]) {
        for (const role of ROLES) {
          const item = await createItem(app, bench, trueFalse);
          for (const step of pathTo[status]) await review(app, bench, bench.manager, item.itemId, step);
          const res = await review(app, bench, users[role], item.itemId, action, action === 'requestChanges' ? 'Tighten the stem.' : undefined);
          const cell = expected[status][action][role];
          const after = ((await call(app, bench.manager, 'GET', `/api/v1/item/${item.itemId}`, { project: bench.projectId })).json() as Json).status;
          if (typeof cell === 'number') {
            if (res.statusCode !== cell || after !== status)
              failures.push(`${status} ${action} by ${role}: ${res.statusCode} ${after}, expected ${cell} staying ${status}`);
          } else if (res.statusCode !== 200 || after !== cell || res.json().toStatus !== cell) {
            failures.push(`${status} ${action} by ${role}: ${res.statusCode} ${after}, expected 200 → ${cell}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('should explain refusals, need a comment to request changes, and keep comments on the item', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const item = await createItem(app, bench, trueFalse);
    const early = await review(app, bench, bench.reviewer, item.itemId, 'approve');
    expect(early.statusCode).toBe(409);
    expect(early.json().messages).toEqual(['An item in status Draft cannot be approved.']);
    await review(app, bench, bench.author, item.itemId, 'submit');
    const notYours = await review(app, bench, bench.author, item.itemId, 'approve');
    expect(notYours.json().messages).toEqual(['You may not approve this item while it is at stage "Peer review": the item flow gives that to ItemReviewer.']);
    const silent = await review(app, bench, bench.reviewer, item.itemId, 'requestChanges', '  ');
    expect(silent.statusCode).toBe(400);
    expect(silent.json().errors.comment).toEqual(['Say what should change: a comment is required to request changes.']);
    expect((await review(app, bench, bench.reviewer, item.itemId, 'comment', 'Is option B defensible?')).statusCode).toBe(200);
    expect((await review(app, bench, bench.reviewer, item.itemId, 'requestChanges', 'Tighten the stem.')).json().toStatus).toBe('Draft');
    const outsider = await review(app, bench, bench.outsider, item.itemId, 'comment', 'hi');
    expect(outsider.statusCode).toBe(404);
    const comments = (await call(app, bench.author, 'GET', `/api/v1/item/${item.itemId}/comments`, { project: bench.projectId })).json() as Json[];
    expect(comments.map((c) => [c.action, c.text, c.by.name])).toEqual([
      ['submit', '', 'Priya Nair'],
      ['comment', 'Is option B defensible?', 'Ravi Kumar'],
      ['requestChanges', 'Tighten the stem.', 'Ravi Kumar'],
    ]);
    const stale = await call(app, bench.author, 'POST', `/api/v1/item/${item.itemId}/review`, {
      project: bench.projectId,
      body: { action: 'submit', version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().messages[0]).toMatch(/^This item was changed by Ravi Kumar/);
  });

  it('should move items standing in a removed stage back when the flow is edited, never forward', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const atApproval = await createItem(app, bench, trueFalse);
    const atReview = await createItem(app, bench, trueFalse);
    for (const step of ['submit', 'approve']) await review(app, bench, bench.manager, atApproval.itemId, step);
    await review(app, bench, bench.manager, atReview.itemId, 'submit');
    const edit = await call(app, bench.manager, 'PUT', `/api/v1/flow/${bench.flowId}`, {
      project: bench.projectId,
      body: {
        version: 1,
        definition: { ...itemFlowDefinition, stages: [itemFlowDefinition.stages[0], { id: 'final', name: 'Final approval', permission: 'ProjectAdmin' }] },
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().stageMoves).toEqual([{ from: 'approval', to: 'review' }]);
    const moved = (await call(app, bench.manager, 'GET', `/api/v1/item/${atApproval.itemId}`, { project: bench.projectId })).json() as Json;
    expect(moved.status).toBe('review');
    expect(moved.actions).toEqual(['approve', 'requestChanges', 'retire', 'comment']);
    expect(((await call(app, bench.manager, 'GET', `/api/v1/item/${atReview.itemId}`, { project: bench.projectId })).json() as Json).status).toBe('review');
    // The edited flow runs: review → final → Approved.
    expect((await review(app, bench, bench.reviewer, atApproval.itemId, 'approve')).json().toStatus).toBe('final');
    expect((await review(app, bench, bench.admin, atApproval.itemId, 'approve')).json().toStatus).toBe('Approved');
  });

  it('should refuse review in a project without an item flow with a clear message', async () => {
    const { app } = get();
    const bench = await itemBench(app, { flow: false });
    const item = await createItem(app, bench, trueFalse);
    expect(item.actions).toEqual(['comment']);
    const res = await review(app, bench, bench.author, item.itemId, 'submit');
    expect(res.statusCode).toBe(409);
    expect(res.json().messages).toEqual(['The project has no item flow: a project admin adds one under Flows before items can be reviewed.']);
  });
});
