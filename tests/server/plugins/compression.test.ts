import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { HubClient } from '../realtime/hub-client.ts';

/**
 * Issue 22: JSON answers of 1 KB and more go out brotli/gzip-compressed when accepted, and mean
 * exactly the same; small answers, downloads and the WebSocket are untouched.
 */
describeEachDatabase('response compression', (get) => {
  let admin: TestUser & { token: string };
  let baseUrl: string;

  beforeAll(async () => {
    admin = await createSignedInUser(get().app, { roles: ['Admin'], userType: 'platform' });
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await get().app.server.close();
  });

  const searchUsers = (acceptEncoding?: string) =>
    get().app.inject({
      method: 'POST',
      url: '/api/users/search',
      headers: { ...as(admin), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      payload: { pageNumber: 1, pageSize: 20 },
    });

  it('should send a large JSON answer brotli- or gzip-compressed, meaning the same JSON', async () => {
    const plain = await searchUsers();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await searchUsers('br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gzip = await searchUsers('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('should leave answers under 1 KB as they are', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/personal/permissions', headers: { ...as(admin), 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('should send a download as it is, with its length, whatever the client accepts', async () => {
    const download = (acceptEncoding?: string) =>
      get().app.inject({
        method: 'POST',
        url: '/api/users/downloadusertemplate',
        headers: { ...as(admin), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      });
    const plain = await download();
    const offered = await download('br, gzip');
    expect(offered.statusCode).toBe(200);
    expect(offered.headers['content-encoding']).toBeUndefined();
    expect(offered.headers['content-type']).toBe(plain.headers['content-type']);
    // The workbook carries its creation time, so two downloads differ; both are the zip itself.
    for (const res of [plain, offered]) {
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
  });

  it('should keep the WebSocket working and the missed-events answer readable', async () => {
    const client = await HubClient.connect(baseUrl, admin.token);
    client.close();
    const missed = await fetch(`${baseUrl}/api/hubs/notifications/missed?after=0`, { headers: { ...as(admin), 'accept-encoding': 'br, gzip' } });
    expect(missed.status).toBe(200);
    expect(await missed.json()).toMatchObject({ hasMore: expect.any(Boolean) });
  });
});
