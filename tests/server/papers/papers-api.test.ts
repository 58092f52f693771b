import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call } from '../exams/workspace-kit.ts';
import {
  addSection,
  cleanPaper,
  createPaper,
  insertItem,
  insertItems,
  mcq,
  paperCall,
  paperWorld,
  sendPaperEvent,
  type PaperAnswer,
  type PaperWorld,
} from './papers-kit.ts';

/** Issue 17 over HTTP: papers and sections of the selected exam, the blueprint, lock and unlock, sets. */
describeEachDatabase('papers API', (get) => {
  let world: PaperWorld;
  beforeAll(async () => {
    world = await paperWorld(get().app);
  });

  it('should let a paper setter create and edit a paper of the exam in the ExamId header, with optimistic versions', async () => {
    const { app } = get();
    const paper = await createPaper(app, world, {
      instructions: { en: 'Answer all questions.', hi: 'सभी प्रश्नों के उत्तर दीजिए।' },
      navigation: 'sectional',
      calculator: true,
      mode: 'offline',
    });
    expect(paper).toMatchObject({
      status: 'Draft',
      version: 1,
      totalMarks: 80,
      navigation: 'sectional',
      calculator: true,
      mode: 'offline',
      sections: [],
      actions: ['paper.edit', 'paper.submit'],
    });
    const edited = await paperCall(app, world, world.setter, 'PUT', `/api/v1/paper/${paper.paperId}`, { title: 'Paper II', version: 1 });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'Paper II', version: 2 });
    const stale = await paperCall(app, world, world.setter, 'PUT', `/api/v1/paper/${paper.paperId}`, { title: 'Paper III', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().messages[0]).toMatch(/changed by Paper Setter .*version 2; your edit was made on version 1/);
    const list = await paperCall(app, world, world.moderator, 'GET', '/api/v1/paper');
    expect((list.json() as PaperAnswer[]).map((p) => p.paperId)).toContain(paper.paperId);
    // The moderator reviews; creating and editing are the setter's.
    expect(
      (await paperCall(app, world, world.moderator, 'POST', '/api/v1/paper', { code: 'X1', title: 'X', durationMinutes: 60, totalMarks: 10 })).statusCode,
    ).toBe(403);
    expect((await paperCall(app, world, world.author, 'PUT', `/api/v1/paper/${paper.paperId}`, { title: 'Mine', version: 2 })).statusCode).toBe(403);
    const duplicate = await paperCall(app, world, world.setter, 'POST', '/api/v1/paper', {
      code: (edited.json() as { code: string }).code,
      title: 'Again',
      durationMinutes: 60,
      totalMarks: 10,
    });
    expect(duplicate.statusCode).toBe(409);
  });

  it('should answer 404 for a paper of another exam or a path id other than the header’s paper id', async () => {
    const { app } = get();
    const paper = await createPaper(app, world);
    const other = await createPaper(app, world);
    expect((await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paper.paperId}`, undefined, other.paperId)).statusCode).toBe(404);
    expect((await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paper.paperId}`, undefined, paper.paperId)).statusCode).toBe(200);
    const otherWorld = await paperWorld(app);
    const res = await call(app, world.manager, 'GET', `/api/v1/paper/${paper.paperId}`, { exam: otherWorld.examId });
    expect(res.statusCode).toBe(404);
    expect(res.json().messages).toEqual(['Paper not found.']);
    expect((await call(app, world.setter, 'GET', '/api/v1/paper', {})).statusCode).toBe(400);
  });

  it('should reorder the sections of a Draft paper as one change, refuse lists that are not its sections, and number the sets in that order', async () => {
    const { app, db } = get();
    // Its own project: the shared one's bank must keep the sizes other tests count on.
    const own = await paperWorld(app);
    const { paper } = await cleanPaper(app, db, own);
    const [a, b] = paper.sections.map((s) => s.sectionId);
    const reorder = (body: Record<string, unknown>, user = own.setter) =>
      paperCall(app, own, user, 'PUT', `/api/v1/paper/${paper.paperId}/sections/order`, body);
    const moved = await reorder({ sectionIds: [b, a], version: paper.version });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = moved.json() as Omit<PaperAnswer, 'sections'> & { sections: Array<{ sectionId: number; order: number }> };
    expect(after.sections.map((s) => [s.sectionId, s.order])).toEqual([
      [b, 1],
      [a, 2],
    ]);
    expect(after.version).toBe(paper.version + 1);
    // Made on the old version: someone else moved it first.
    const stale = await reorder({ sectionIds: [a, b], version: paper.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ currentVersion: after.version });
    const errors = async (sectionIds: number[]) => {
      const res = await reorder({ sectionIds, version: after.version });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().errors as Record<string, string[]>;
    };
    expect(await errors([a])).toEqual({ sectionIds: [`List every section of the paper: ${b} is missing.`] });
    expect(await errors([a, a])).toEqual({ sectionIds: ['List each section once.'] });
    expect(await errors([a, b, 999999])).toEqual({ sectionIds: ['Section 999999 is not a section of this paper.'] });
    expect((await reorder({ sectionIds: [a, b], version: after.version }, own.moderator)).statusCode).toBe(403);
    expect((await reorder({ sectionIds: [] })).statusCode).toBe(400);

    // The sets follow the new order: the drawn section comes first and is numbered from 1.
    await sendPaperEvent(app, own, own.setter, paper.paperId, 'paper.submit');
    expect((await sendPaperEvent(app, own, own.moderator, paper.paperId, 'paper.lock')).statusCode).toBe(200);
    const sets = (await paperCall(app, own, own.setter, 'POST', `/api/v1/paper/${paper.paperId}/sets`, { count: 1 })).json();
    const [first, second] = sets.sets[0].set.sections as Array<{ sectionId: string; items: Array<{ number: number }> }>;
    expect([first.sectionId, second.sectionId]).toEqual([String(b), String(a)]);
    expect(first.items.map((i) => i.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(second.items[0].number).toBe(11);
    // Locked: the order is frozen like every other edit.
    const locked = await reorder({ sectionIds: [a, b], version: after.version + 2 });
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toMatchObject({ currentStatus: 'Locked' });
  });

  it('should show a paper’s content (items, blueprint, sets, PDFs) only to its setters, moderators and project admins', async () => {
    const { app, db } = get();
    // Its own project: the shared one's bank must keep the sizes other tests count on.
    const own = await paperWorld(app);
    const { paper } = await cleanPaper(app, db, own);
    await sendPaperEvent(app, own, own.setter, paper.paperId, 'paper.submit');
    await sendPaperEvent(app, own, own.moderator, paper.paperId, 'paper.lock');
    await paperCall(app, own, own.setter, 'POST', `/api/v1/paper/${paper.paperId}/sets`, { count: 2 });
    // An item author of the project reaches the exam: the paper is listed, with its outline only.
    const seen = (await paperCall(app, own, own.author, 'GET', `/api/v1/paper/${paper.paperId}`)).json();
    expect(seen).toMatchObject({ status: 'Locked', setCount: 2, contentVisible: false, actions: [] });
    expect(seen.sections.map((s: { rule: unknown; itemCount: number; marks: number }) => [s.rule, s.itemCount, s.marks])).toEqual([
      [{ kind: 'fixed', items: [] }, 10, 20],
      [{ kind: 'draw', draws: [] }, 10, 40],
    ]);
    const listed = (await paperCall(app, own, own.author, 'GET', '/api/v1/paper')).json() as Array<{ paperId: number; contentVisible: boolean }>;
    expect(listed.find((p) => p.paperId === paper.paperId)?.contentVisible).toBe(false);
    for (const path of ['items', 'blueprint', 'sets', 'sets/compare', 'sets/A', 'sets/A/verify', 'sets/A/pdf', 'sets/A/pdf?part=key']) {
      const res = await paperCall(app, own, own.author, 'GET', `/api/v1/paper/${paper.paperId}/${path}`);
      expect(res.statusCode, path).toBe(403);
      expect(res.json().messages, path).toEqual(['Only the paper setters, moderators and project admins of this exam may see what is in its papers.']);
    }
    expect((await paperCall(app, own, own.author, 'GET', `/api/v1/paper/${paper.paperId}/history`)).statusCode).toBe(200);
    // Its parties see everything.
    for (const user of [own.setter, own.moderator, own.admin]) {
      const answer = (await paperCall(app, own, user, 'GET', `/api/v1/paper/${paper.paperId}`)).json();
      expect(answer.contentVisible).toBe(true);
      expect(answer.sections[0].rule.items).toHaveLength(10);
      for (const path of ['items', 'blueprint', 'sets', 'sets/compare', 'sets/A', 'sets/A/verify'])
        expect((await paperCall(app, own, user, 'GET', `/api/v1/paper/${paper.paperId}/${path}`)).statusCode, path).toBe(200);
    }
  });

  it('should refuse bad sections with clear 400s: no items, a draw for more items than exist, unknown versions and categories, attempt-any too large', async () => {
    const { app, db } = get();
    const paper = await createPaper(app, world);
    await insertItems(db, world, 3, { categoryId: world.categories.geometry, difficulty: 'hard' });
    const add = (body: Record<string, unknown>) =>
      paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${paper.paperId}/section`, { title: 'S', marksPerItem: 1, ...body });
    const errors = async (body: Record<string, unknown>) => {
      const res = await add(body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().errors as Record<string, string[]>;
    };
    expect(await errors({ rule: { kind: 'fixed', items: [] } })).toEqual({ rule: ['A section needs at least one item: add items from the bank.'] });
    expect(await errors({ rule: { kind: 'draw', draws: [] } })).toEqual({ rule: ['A section needs at least one item: a draw rule must draw at least one.'] });
    expect(await errors({ rule: { kind: 'draw', draws: [{ categoryId: world.categories.geometry, difficulty: 'hard', count: 9 }] } })).toEqual({
      'rule.draws[0].count': ['This rule draws 9 hard items of "Geometry", but the bank has only 3.'],
    });
    expect(await errors({ rule: { kind: 'draw', draws: [{ categoryId: 999999, difficulty: 'hard', count: 1 }] } })).toEqual({
      'rule.draws[0].categoryId': ['Category 999999 does not exist in this project.'],
    });
    expect(await errors({ rule: { kind: 'fixed', items: [999999] } })).toEqual({ 'rule.items': ['Item version 999999 does not exist in this project.'] });
    const { versionId } = await insertItem(db, world, { categoryId: world.categories.algebra, difficulty: 'easy' });
    expect(await errors({ attemptAny: 2, rule: { kind: 'fixed', items: [versionId] } })).toEqual({
      attemptAny: ['"Attempt any 2" needs at least 2 items; this section has 1.'],
    });
    // Schema-level bad input is a 400 too, never a 500.
    for (const body of [
      { marksPerItem: -1, rule: { kind: 'fixed', items: [versionId] } },
      { rule: { kind: 'lottery' } },
      { rule: { kind: 'draw', draws: [{ categoryId: 'x', difficulty: 'easy', count: 1 }] } },
    ]) {
      expect((await add(body)).statusCode).toBe(400);
    }
    // A version of another project's item does not exist here.
    const otherWorld = await paperWorld(app);
    const foreign = await insertItem(db, otherWorld, { categoryId: otherWorld.categories.algebra, difficulty: 'easy' });
    expect(await errors({ rule: { kind: 'fixed', items: [foreign.versionId] } })).toEqual({
      'rule.items': [`Item version ${foreign.versionId} does not exist in this project.`],
    });
  });

  it('should draw the blueprint by section × category × difficulty with language coverage and the issue’s warnings', async () => {
    const { app, db } = get();
    const approved = await insertItems(db, world, 2, { categoryId: world.categories.algebra, difficulty: 'medium' });
    const draft = await insertItem(db, world, { categoryId: world.categories.algebra, difficulty: 'medium', approved: false });
    const englishOnly = await insertItem(db, world, { categoryId: world.categories.algebra, difficulty: 'hard', content: mcq(7, ['en']) });
    const paper = await createPaper(app, world, { totalMarks: 100 });
    await addSection(app, world, paper.paperId, {
      title: 'A',
      marksPerItem: 3,
      rule: { kind: 'fixed', items: [approved[0].versionId, draft.versionId, englishOnly.versionId] },
    });
    await addSection(app, world, paper.paperId, {
      title: 'B',
      marksPerItem: 5,
      rule: { kind: 'fixed', items: [approved[1].versionId, approved[0].versionId] },
    });
    const res = await paperCall(app, world, world.moderator, 'GET', `/api/v1/paper/${paper.paperId}/blueprint`);
    expect(res.statusCode).toBe(200);
    const blueprint = res.json();
    expect(blueprint.computedMarks).toBe(19);
    expect(blueprint.sections.map((s: { title: string; count: number; marks: number }) => [s.title, s.count, s.marks])).toEqual([
      ['A', 3, 9],
      ['B', 2, 10],
    ]);
    expect(blueprint.byCategory).toEqual([{ categoryId: String(world.categories.algebra), categoryName: 'Algebra', count: 5, marks: 19 }]);
    expect(blueprint.languages).toEqual([
      { language: 'en', missing: [], drawPoolMissing: 0 },
      { language: 'hi', missing: [String(englishOnly.versionId)], drawPoolMissing: 0 },
    ]);
    expect(blueprint.warnings.map((w: { code: string }) => w.code).sort()).toEqual(['duplicateItem', 'languageMissing', 'notApproved', 'totalMismatch']);
    expect(blueprint.blocking).toBe(3);
    // What the builder shows of the pinned versions: code, version, status, languages.
    const pinned = await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paper.paperId}/items`);
    expect(pinned.statusCode).toBe(200);
    const rows = pinned.json() as Array<{ versionId: string; approved: boolean; languages: string[]; code: string; versionNumber: number }>;
    expect(rows.map((r) => r.versionId).sort()).toEqual([approved[0], approved[1], draft, englishOnly].map((i) => String(i.versionId)).sort());
    expect(rows.find((r) => r.versionId === String(draft.versionId))).toMatchObject({ approved: false, versionNumber: 1 });
    expect(rows.find((r) => r.versionId === String(englishOnly.versionId))?.languages).toEqual(['en']);
    expect(rows.every((r) => r.code.length > 0)).toBe(true);
  });

  it('should lock a clean paper (snapshot of exact versions), answer 409 to every edit until a project admin unlocks it with a reason', async () => {
    const { app, db } = get();
    const world = await paperWorld(app); // a bank of its own: the pools' sizes are exact
    const { paper, fixed } = await cleanPaper(app, db, world);
    const id = paper.paperId;
    expect((await sendPaperEvent(app, world, world.setter, id, 'paper.submit')).statusCode).toBe(200);
    expect((await sendPaperEvent(app, world, world.setter, id, 'paper.lock')).statusCode).toBe(403);
    const locked = await sendPaperEvent(app, world, world.moderator, id, 'paper.lock');
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json()).toMatchObject({ fromStatus: 'Review', toStatus: 'Locked', record: { status: 'Locked', lockedBy: { name: 'Paper Moderator' } } });
    const { rows } = await db.query<{
      snapshot: { sections: Array<{ fixed: string[] | null; draws: Array<{ pool: string[] }> | null }>; items: Record<string, unknown> };
    }>(`select snapshot from papers where id = $1`, [id]);
    expect(rows[0].snapshot.sections[0].fixed).toEqual(fixed.map((f) => String(f.versionId)));
    expect(rows[0].snapshot.sections[1].draws!.map((d) => d.pool.length)).toEqual([8, 8]);
    expect(Object.keys(rows[0].snapshot.items)).toHaveLength(26);

    const version = (locked.json() as { record: PaperAnswer }).record.version;
    const edits = [
      paperCall(app, world, world.setter, 'PUT', `/api/v1/paper/${id}`, { title: 'Changed', version }),
      paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/section`, {
        title: 'C',
        marksPerItem: 1,
        rule: { kind: 'fixed', items: [fixed[0].versionId] },
      }),
      paperCall(app, world, world.setter, 'PUT', `/api/v1/paper/${id}/section/${paper.sections[0].sectionId}`, { title: 'Changed', version: 1 }),
      paperCall(app, world, world.setter, 'DELETE', `/api/v1/paper/${id}/section/${paper.sections[0].sectionId}`),
      paperCall(app, world, world.admin, 'DELETE', `/api/v1/paper/${id}`),
    ];
    for (const res of await Promise.all(edits)) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ currentStatus: 'Locked', messages: ['This paper is Locked: it cannot be edited until a project admin unlocks it.'] });
    }
    expect((await sendPaperEvent(app, world, world.moderator, id, 'paper.unlock', { reason: 'typo' })).statusCode).toBe(403);
    expect((await sendPaperEvent(app, world, world.setter, id, 'paper.unlock', { reason: 'typo' })).statusCode).toBe(403);
    const noReason = await sendPaperEvent(app, world, world.admin, id, 'paper.unlock', { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual({ reason: ['A reason is required to unlock a paper.'] });
    expect((await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/sets`, { count: 2 })).statusCode).toBe(201);
    const unlocked = await sendPaperEvent(app, world, world.admin, id, 'paper.unlock', { reason: 'Question 3 has a typo in Hindi' });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().record).toMatchObject({ status: 'Draft', setCount: 0, lockedAt: null });
    const edit = await paperCall(app, world, world.setter, 'PUT', `/api/v1/paper/${id}`, { title: 'Fixed', version: unlocked.json().record.version });
    expect(edit.statusCode).toBe(200);
    const history = (await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${id}/history`)).json() as Array<{
      event: string;
      reason: string | null;
      by: { name: string };
    }>;
    expect(history.map((h) => h.event)).toEqual(['paper.create', 'paper.submit', 'paper.lock', 'paper.generateSets', 'paper.unlock']);
    expect(history.at(-1)).toMatchObject({ reason: 'Question 3 has a typo in Hindi', by: { name: 'Project Admin' } });
  });

  it('should refuse to lock a paper whose marks do not add up, naming the problem', async () => {
    const { app, db } = get();
    const { paper } = await cleanPaper(app, db, world);
    const edited = await paperCall(app, world, world.setter, 'PUT', `/api/v1/paper/${paper.paperId}`, { totalMarks: 70, version: paper.version });
    expect(edited.statusCode).toBe(200);
    await sendPaperEvent(app, world, world.setter, paper.paperId, 'paper.submit');
    const res = await sendPaperEvent(app, world, world.moderator, paper.paperId, 'paper.lock');
    expect(res.statusCode).toBe(400);
    expect(res.json().messages).toEqual([
      'The paper cannot be locked until its blueprint has no blocking problem:',
      'The sections add up to 60 marks, but the paper declares 70.',
    ]);
    expect((await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paper.paperId}`)).json().status).toBe('Review');
    // Changes are asked for with a reason, and the setter fixes the total.
    expect((await sendPaperEvent(app, world, world.moderator, paper.paperId, 'paper.requestChanges')).statusCode).toBe(400);
    expect((await sendPaperEvent(app, world, world.moderator, paper.paperId, 'paper.requestChanges', { reason: 'Total is 60' })).json().toStatus).toBe('Draft');
  });

  it('should generate sets A–D only from a locked paper: equivalent, each with its seed, byte-identical when regenerated, compared item by item', async () => {
    const { app, db } = get();
    const { paper } = await cleanPaper(app, db, world);
    const id = paper.paperId;
    const early = await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/sets`, { count: 4 });
    expect(early.statusCode).toBe(400);
    expect(early.json().messages).toEqual(['Sets are generated from a locked paper; this paper is Draft. Lock it first.']);
    await sendPaperEvent(app, world, world.setter, id, 'paper.submit');
    await sendPaperEvent(app, world, world.moderator, id, 'paper.lock');
    expect((await paperCall(app, world, world.author, 'POST', `/api/v1/paper/${id}/sets`, { count: 4 })).statusCode).toBe(403);
    expect((await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/sets`, { count: 2, seeds: ['a'] })).statusCode).toBe(400);
    const generated = await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/sets`, { count: 4 });
    expect(generated.statusCode, generated.body).toBe(201);
    const list = generated.json() as {
      sets: Array<{ letter: string; seed: string; sha256: string; set: { sections: Array<{ items: Array<{ versionId: string; options: string[] }> }> } }>;
      equivalence: { equivalent: boolean };
    };
    expect(list.sets.map((s) => s.letter)).toEqual(['A', 'B', 'C', 'D']);
    expect(list.equivalence).toEqual({ equivalent: true, differences: [] });
    expect(new Set(list.sets.map((s) => s.seed)).size).toBe(4);
    for (const set of list.sets) {
      expect(set.set.sections.map((s) => s.items.length)).toEqual([10, 10]);
      // "D" is the keep-last option of every item: it stays last.
      for (const item of set.set.sections.flatMap((s) => s.items)) expect(item.options[3]).toBe('D');
      const verify = await paperCall(app, world, world.moderator, 'GET', `/api/v1/paper/${id}/sets/${set.letter}/verify`);
      expect(verify.json()).toEqual({ letter: set.letter, seed: set.seed, identical: true, sha256: set.sha256, regeneratedSha256: set.sha256 });
    }
    // Regenerating from the recorded seeds gives the same bytes.
    const again = await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/sets`, { seeds: list.sets.map((s) => s.seed) });
    expect((again.json() as typeof list).sets.map((s) => s.sha256)).toEqual(list.sets.map((s) => s.sha256));

    const compare = (await paperCall(app, world, world.moderator, 'GET', `/api/v1/paper/${id}/sets/compare`)).json() as {
      letters: string[];
      rows: Array<{ positions: Record<string, number | null> }>;
    };
    expect(compare.letters).toEqual(['A', 'B', 'C', 'D']);
    const fixedRows = compare.rows.filter((r) => Object.values(r.positions).every((p) => p !== null && p <= 10));
    expect(fixedRows).toHaveLength(10);

    const setC = await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${id}/sets/C`);
    expect(setC.statusCode).toBe(200);
    const body = setC.json() as {
      set: { letter: string };
      items: Record<string, { variants: Record<string, { stem: string }> }>;
      sections: Array<{ title: string }>;
    };
    expect(body.set.letter).toBe('C');
    expect(Object.keys(body.items)).toHaveLength(20);
    expect(Object.values(body.items)[0].variants.hi.stem).toMatch(/प्रश्न/);
    expect(body.sections.map((s) => s.title)).toEqual(['A: Algebra', 'B: Geometry']);
    expect((await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${id}/sets/Q`)).statusCode).toBe(404);

    // Published: the sets are frozen.
    expect((await sendPaperEvent(app, world, world.moderator, id, 'paper.publish')).json().toStatus).toBe('Published');
    expect((await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/sets`, { count: 4 })).statusCode).toBe(409);
    expect((await sendPaperEvent(app, world, world.admin, id, 'paper.unlock', { reason: 'late fix' })).statusCode).toBe(409);
  });

  it('should refuse to publish a locked paper without sets', async () => {
    const { app, db } = get();
    const { paper } = await cleanPaper(app, db, world);
    await sendPaperEvent(app, world, world.setter, paper.paperId, 'paper.submit');
    await sendPaperEvent(app, world, world.moderator, paper.paperId, 'paper.lock');
    const res = await sendPaperEvent(app, world, world.moderator, paper.paperId, 'paper.publish');
    expect(res.statusCode).toBe(409);
    expect(res.json().messages).toEqual(['Generate at least one set before publishing the paper.']);
  });
});
