import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from './fixture.ts';
import { sendEvent } from './ticket-events-http.ts';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0)]);

function multipart(fields: Record<string, string>, files: Array<{ name: string; content: Buffer; type?: string }>) {
  const boundary = `----exam-portal-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(app: FastifyInstance, user: TestUser, ticketId: number, files: Array<{ name: string; content: Buffer; type?: string }>, byAdmin = false) {
  const body = multipart({ ticketId: String(ticketId) }, files);
  return app.inject({
    method: 'POST',
    url: byAdmin ? '/api/v1/supportticket/uploaddocumentbyadmin' : '/api/v1/supportticket/uploaddocument',
    payload: body.payload,
    headers: { ...body.headers, ...as(user) },
  });
}

describeEachDatabase('ticket documents', (get) => {
  let f: TicketsFixture;
  let ticketId: number;
  beforeAll(async () => {
    f = await ticketsFixture(get().app);
    ticketId = (await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general })).ticketId;
  });

  it('should store files by their content type, whatever the client claims, and list them', async () => {
    const { app } = get();
    const res = await upload(app, f.requester, ticketId, [
      { name: 'screenshot.png', content: PNG, type: 'application/pdf' },
      { name: '../../etc/passwd-notes.pdf', content: PDF, type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(201);
    const docs = res.json();
    expect(docs.map((d: { fileName: string; contentType: string; sizeBytes: number }) => [d.fileName, d.contentType, d.sizeBytes])).toEqual([
      ['screenshot.png', 'image/png', PNG.length],
      ['passwd-notes.pdf', 'application/pdf', PDF.length],
    ]);
    const list = await app.inject({ method: 'GET', url: `/api/v1/supportticket/document?ticketId=${ticketId}`, headers: as(f.requester) });
    expect(list.json()).toHaveLength(2);
    const history = (await app.inject({ method: 'GET', url: `/api/v1/supportticket/tickethistory?ticketId=${ticketId}`, headers: as(f.requester) })).json();
    expect(history.filter((h: { event: string }) => h.event === 'document.added')).toHaveLength(2);
  });

  it('should refuse a file whose content is not an allowed type, storing nothing', async () => {
    const { app } = get();
    const res = await upload(app, f.requester, ticketId, [
      { name: 'fine.pdf', content: PDF },
      { name: 'invoice.pdf', content: EXE, type: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json().messages[0]).toBe(
      'invoice.pdf is not an allowed document type. Allowed: PDF, PNG image, JPEG image, GIF image, WebP image, Word document, Excel workbook, PowerPoint presentation, text.',
    );
    const list = await app.inject({ method: 'GET', url: `/api/v1/supportticket/document?ticketId=${ticketId}`, headers: as(f.requester) });
    expect(list.json()).toHaveLength(2);
  });

  it('should refuse text that is HTML or SVG and store other text under a text extension (issue 23)', async () => {
    const { app } = get();
    const markup = [
      ['page.txt', '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'],
      ['logo.svg', '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
      ['notes.txt', 'Hello\n<img src=x onerror="alert(1)">'],
      ['inline.html', '  \uFEFF<svg><foreignObject></foreignObject></svg>'],
    ] as const;
    for (const [name, text] of markup) {
      const res = await upload(app, f.requester, ticketId, [{ name, content: Buffer.from(text), type: 'text/plain' }]);
      expect({ name, status: res.statusCode }).toEqual({ name, status: 415 });
    }
    const renamed = await upload(app, f.requester, ticketId, [
      { name: 'report.html', content: Buffer.from('Plain words about a failed exam login.'), type: 'text/html' },
    ]);
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json()[0]).toMatchObject({ fileName: 'report.html.txt', contentType: 'text/plain' });
    const kept = await upload(app, f.requester, ticketId, [{ name: 'marks.csv', content: Buffer.from('a,b\n1,2\n') }]);
    expect(kept.json()[0]).toMatchObject({ fileName: 'marks.csv' });
    const download = await app.inject({
      method: 'POST',
      url: `/api/v1/supportticket/downloaddocument?documentId=${renamed.json()[0].documentId}`,
      headers: as(f.requester),
    });
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="report\.html\.txt"/);
    expect(download.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('should download with a JSON content type and an empty body, as the browser sends it (issue 23)', async () => {
    const { app } = get();
    const [doc] = (await upload(app, f.requester, ticketId, [{ name: 'empty-body.pdf', content: PDF }])).json();
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/supportticket/downloaddocument?documentId=${doc.documentId}`,
      headers: { ...as(f.requester), 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Buffer.compare(res.rawPayload, PDF)).toBe(0);
    const broken = await app.inject({
      method: 'POST',
      url: `/api/v1/supportticket/downloaddocument?documentId=${doc.documentId}`,
      headers: { ...as(f.requester), 'content-type': 'application/json' },
      payload: '{',
    });
    expect(broken.statusCode).toBe(400);
  });

  it('should refuse a file over 10 MB with 413', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
    const res = await upload(get().app, f.requester, ticketId, [{ name: 'big.txt', content: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().messages).toEqual(['Each document must be at most 10 MB.']);
  });

  it('should refuse a request that is not multipart, and one without files', async () => {
    const { app } = get();
    const json = await app.inject({ method: 'POST', url: '/api/v1/supportticket/uploaddocument', headers: as(f.requester), payload: { ticketId } });
    expect(json.statusCode).toBe(415);
    const none = multipart({ ticketId: String(ticketId) }, []);
    const empty = await app.inject({
      method: 'POST',
      url: '/api/v1/supportticket/uploaddocument',
      payload: none.payload,
      headers: { ...none.headers, ...as(f.requester) },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.file).toEqual(['Choose at least one file to upload.']);
  });

  it('should serve a document as an attachment with nosniff and an encoded file name', async () => {
    const { app } = get();
    const [doc] = (await upload(app, f.requester, ticketId, [{ name: 'résumé, final.pdf', content: PDF }])).json();
    const res = await app.inject({ method: 'POST', url: `/api/v1/supportticket/downloaddocument?documentId=${doc.documentId}`, headers: as(f.requester) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="r_sum_, final.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%2C%20final.pdf`);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    const staff = await app.inject({
      method: 'POST',
      url: `/api/v1/supportticket/downloaddocumentbyadmin?documentId=${doc.documentId}`,
      headers: as(f.agentA),
    });
    expect(staff.statusCode).toBe(200);
  });

  it('should hide documents from another requester and from other groups (404)', async () => {
    const { app } = get();
    const [doc] = (await upload(app, f.requester, ticketId, [{ name: 'private.pdf', content: PDF }])).json();
    const other = await app.inject({
      method: 'POST',
      url: `/api/v1/supportticket/downloaddocument?documentId=${doc.documentId}`,
      headers: as(f.otherRequester),
    });
    expect(other.statusCode).toBe(404);
    const otherGroup = await app.inject({
      method: 'POST',
      url: `/api/v1/supportticket/downloaddocumentbyadmin?documentId=${doc.documentId}`,
      headers: as(f.technicalAgent),
    });
    expect(otherGroup.statusCode).toBe(404);
    const list = await app.inject({ method: 'GET', url: `/api/v1/supportticket/document?ticketId=${ticketId}`, headers: as(f.otherRequester) });
    expect(list.statusCode).toBe(404);
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/v1/supportticket/deletedocument?SupportTicketDocumentId=${doc.documentId}`,
      headers: as(f.otherRequester),
    });
    expect(del.statusCode).toBe(404);
  });

  it('should let the requester delete their own uploads and staff delete any, then freeze documents once Closed', async () => {
    const { app } = get();
    const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
    const [mine] = (await upload(app, f.requester, t.ticketId, [{ name: 'mine.txt', content: Buffer.from('hello') }])).json();
    const [staffDoc] = (await upload(app, f.agentA, t.ticketId, [{ name: 'steps.txt', content: Buffer.from('do this') }], true)).json();
    const refused = await app.inject({
      method: 'DELETE',
      url: `/api/v1/supportticket/deletedocument?SupportTicketDocumentId=${staffDoc.documentId}`,
      headers: as(f.requester),
    });
    expect(refused.statusCode).toBe(403);
    const ok = await app.inject({
      method: 'DELETE',
      url: `/api/v1/supportticket/deletedocument?SupportTicketDocumentId=${mine.documentId}`,
      headers: as(f.requester),
    });
    expect(ok.statusCode).toBe(204);
    await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
    await sendEvent(app, f.agentA, 'ticket.resolve', t.ticketId);
    await sendEvent(app, f.requester, 'ticket.close', t.ticketId);
    const frozen = await app.inject({
      method: 'DELETE',
      url: `/api/v1/supportticketadmin/deletedocumentbyadmin?SupportTicketDocumentId=${staffDoc.documentId}`,
      headers: as(f.supportAdmin),
    });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().messages).toEqual([`Ticket ${t.ticketId} is Closed; its documents can no longer change.`]);
    const late = await upload(app, f.requester, t.ticketId, [{ name: 'late.txt', content: Buffer.from('x') }]);
    expect(late.statusCode).toBe(409);
    const history = (await app.inject({ method: 'GET', url: `/api/v1/supportticket/tickethistory?ticketId=${t.ticketId}`, headers: as(f.requester) })).json();
    expect(history.map((h: { event: string }) => h.event)).toEqual([
      'ticket.created',
      'document.added',
      'document.added',
      'document.deleted',
      'ticket.claim',
      'ticket.resolve',
      'ticket.close',
    ]);
  });
});
