import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, createProject, grant, managerUser, staffUser, tinyPng, tinyWav, uploadFiles } from './workspace-kit.ts';

type Json = Record<string, any>;

describeEachDatabase('category files', (get) => {
  it('should store files by their content type, list them and serve them inert', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const author = await staffUser(app, { firstName: 'Priya', lastName: 'Nair' });
    const id = await createProject(app, manager);
    await grant(app, manager, id, author, 'ItemAuthor');
    const category = (await call(app, manager, 'POST', '/api/v1/category', { project: id, body: { name: 'Optics' } })).json() as Json;
    const res = await uploadFiles(app, author, id, category.categoryId, [
      // The client's name and type are not believed: the content decides.
      { name: 'ray-diagram.txt', content: tinyPng, type: 'text/plain' },
      { name: 'instructions.wav', content: tinyWav, type: 'audio/wav' },
      { name: '../../passage.txt', content: Buffer.from('Read the passage and answer the questions that follow.\n'), type: 'text/html' },
    ]);
    expect(res.statusCode).toBe(201);
    const files = res.json() as Json[];
    expect(files.map((f) => [f.fileName, f.contentType, f.sizeBytes])).toEqual(
      expect.arrayContaining([
        ['ray-diagram.txt', 'image/png', tinyPng.length],
        ['instructions.wav', 'audio/wav', tinyWav.length],
        ['passage.txt', 'text/plain', 55],
      ]),
    );
    expect(files[0].uploadedBy).toEqual({ userId: author.id, name: 'Priya Nair' });

    const image = files.find((f) => f.contentType === 'image/png')!;
    const download = await call(app, author, 'GET', `/api/v1/categoryfile/${image.fileId}`, { project: id });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(tinyPng)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe(`inline; filename="ray-diagram.txt"; filename*=UTF-8''ray-diagram.txt`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
    const text = files.find((f) => f.contentType === 'text/plain')!;
    const passage = await call(app, author, 'GET', `/api/v1/categoryfile/${text.fileId}`, { project: id });
    expect(passage.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(passage.headers['content-disposition']).toMatch(/^attachment; /);

    const listed = (await call(app, author, 'GET', `/api/v1/categoryfile?categoryId=${category.categoryId}`, { project: id })).json() as Json[];
    expect(listed).toHaveLength(3);
    // A category holding files is in use.
    const del = await call(app, manager, 'DELETE', `/api/v1/category/${category.categoryId}`, { project: id });
    expect(del.json().messages).toEqual(['The category "Optics" is in use (3 files): retire it instead.']);
  });

  it('should refuse active or unknown content, empty files, and a category of another project', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    const other = await createProject(app, manager);
    const category = (await call(app, manager, 'POST', '/api/v1/category', { project: id, body: { name: 'Optics' } })).json() as Json;
    const foreign = (await call(app, manager, 'POST', '/api/v1/category', { project: other, body: { name: 'Optics' } })).json() as Json;
    const html = await uploadFiles(app, manager, id, category.categoryId, [
      { name: 'x.png', content: Buffer.from([0x00, 0x01, 0x02, 0x03, 0x3c, 0x73]), type: 'image/png' },
    ]);
    expect(html.statusCode).toBe(415);
    expect(html.json().messages).toEqual([
      'x.png is not an allowed file type. Allowed: PNG image, JPEG image, GIF image, WebP image, MP3 audio, WAV audio, Ogg audio, PDF, text.',
    ]);
    const zip = await uploadFiles(app, manager, id, category.categoryId, [{ name: 'a.docx', content: Buffer.from('504b0304', 'hex') }]);
    expect(zip.statusCode).toBe(415);
    const empty = await uploadFiles(app, manager, id, category.categoryId, [{ name: 'empty.png', content: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(400);
    const elsewhere = await uploadFiles(app, manager, id, foreign.categoryId, [{ name: 'a.png', content: tinyPng }]);
    expect(elsewhere.statusCode).toBe(404);
    const json = await call(app, manager, 'POST', '/api/v1/categoryfile', { project: id, body: { categoryId: category.categoryId } });
    expect(json.statusCode).toBe(415);
  });

  it('should let only uploaders change files and hide files of other projects', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const reviewer = await staffUser(app);
    const id = await createProject(app, manager);
    const other = await createProject(app, manager);
    await grant(app, manager, id, reviewer, 'ItemReviewer');
    const category = (await call(app, manager, 'POST', '/api/v1/category', { project: id, body: { name: 'Optics' } })).json() as Json;
    const refused = await uploadFiles(app, reviewer, id, category.categoryId, [{ name: 'a.png', content: tinyPng }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().messages).toEqual(['Only item authors, paper setters and project admins manage category files.']);
    const [file] = (await uploadFiles(app, manager, id, category.categoryId, [{ name: 'a.png', content: tinyPng }])).json() as Json[];
    expect((await call(app, reviewer, 'GET', `/api/v1/categoryfile/${file.fileId}`, { project: id })).statusCode).toBe(200);
    expect((await call(app, reviewer, 'DELETE', `/api/v1/categoryfile/${file.fileId}`, { project: id })).statusCode).toBe(403);
    expect((await call(app, manager, 'GET', `/api/v1/categoryfile/${file.fileId}`, { project: other })).statusCode).toBe(404);
    expect((await call(app, manager, 'DELETE', `/api/v1/categoryfile/${file.fileId}`, { project: id })).json()).toEqual({ deleted: true });
    expect((await call(app, manager, 'GET', `/api/v1/categoryfile/${file.fileId}`, { project: id })).statusCode).toBe(404);
  });
});
