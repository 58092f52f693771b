import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { tinyPng } from '../exams/workspace-kit.ts';
import { createUser, signIn, uniqueEmail } from '../identity/identity-test-kit.ts';

/**
 * The profile photo (issue 21, docs/decisions/0264): PNG, JPEG or WebP up to 1 MB, its type read
 * from its bytes (a renamed file is refused), shown back only to its owner, removable; without
 * one GET answers 204 and the avatar shows initials.
 */
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1), Buffer.from([0xff, 0xd9])]);
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([30, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(22)]);

function upload(app: FastifyInstance, token: string, file: { name: string; type: string; content: Buffer } | null, extraFile = false) {
  const boundary = '----photo';
  const part = (f: { name: string; type: string; content: Buffer }) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
      f.content,
      Buffer.from('\r\n'),
    ]);
  const parts = file
    ? [part(file), ...(extraFile ? [part(file)] : [])]
    : [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n`)];
  return app.inject({
    method: 'PUT',
    url: '/api/v1/profile/photo',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
  });
}

const photoOf = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/profile/photo', headers: { authorization: `Bearer ${token}` } });
const profileOf = async (app: FastifyInstance, token: string) =>
  (await app.inject({ method: 'GET', url: '/api/v1/profile', headers: { authorization: `Bearer ${token}` } })).json() as { hasPhoto: boolean };

describeEachDatabase('the profile photo /api/v1/profile/photo', (get) => {
  it('should take a PNG, JPEG or WebP by its content, give it back to its owner only, and remove it', async () => {
    const { app } = get();
    const [owner, other] = await Promise.all([
      createUser(app.db, { email: uniqueEmail('photo'), firstName: 'Isha' }),
      createUser(app.db, { email: uniqueEmail('photo2'), firstName: 'Dev' }),
    ]);
    const [{ token }, { token: otherToken }] = [await signIn(app, owner), await signIn(app, other)];
    expect((await photoOf(app, token)).statusCode).toBe(204);
    expect(await profileOf(app, token)).toMatchObject({ hasPhoto: false });

    // The type comes from the bytes: a PNG sent as "photo.jpg" with image/jpeg is stored as a PNG.
    const saved = await upload(app, token, { name: 'photo.jpg', type: 'image/jpeg', content: tinyPng });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ mime: 'image/png', sizeBytes: tinyPng.length });
    const back = await photoOf(app, token);
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    expect(back.rawPayload.equals(tinyPng)).toBe(true);
    expect(await profileOf(app, token)).toMatchObject({ hasPhoto: true });
    // Nobody else sees it: each asks for their own.
    expect((await photoOf(app, otherToken)).statusCode).toBe(204);

    for (const [content, mime] of [
      [jpeg, 'image/jpeg'],
      [webp, 'image/webp'],
    ] as const) {
      const replaced = await upload(app, token, { name: 'me.png', type: 'image/png', content });
      expect(replaced.json(), replaced.body).toMatchObject({ mime });
      expect((await photoOf(app, token)).headers['content-type']).toBe(mime);
    }

    const removed = await app.inject({ method: 'DELETE', url: '/api/v1/profile/photo', headers: { authorization: `Bearer ${token}` } });
    expect(removed.statusCode).toBe(204);
    expect((await photoOf(app, token)).statusCode).toBe(204);
    expect(await profileOf(app, token)).toMatchObject({ hasPhoto: false });
  });

  it('should refuse what is not a photo, too large, empty, several files or none, never with a 500', async () => {
    const { app } = get();
    const user = await createUser(app.db, { email: uniqueEmail('photo3'), firstName: 'Arjun' });
    const { token } = await signIn(app, user);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const cases: Array<[Parameters<typeof upload>[2], number, RegExp | null, boolean?]> = [
      [{ name: 'photo.png', type: 'image/png', content: svg }, 415, /is not a PNG, JPEG or WebP image/],
      [{ name: 'photo.png', type: 'image/png', content: gif }, 415, /is not a PNG, JPEG or WebP image/],
      [{ name: 'photo.png', type: 'image/png', content: Buffer.concat([tinyPng, Buffer.alloc(1024 * 1024)]) }, 413, /at most 1 MB/],
      [{ name: 'photo.png', type: 'image/png', content: Buffer.alloc(0) }, 400, /is empty/],
      [null, 400, null],
      [{ name: 'a.png', type: 'image/png', content: tinyPng }, 400, null, true],
    ];
    for (const [file, status, message, twice] of cases) {
      const res = await upload(app, token, file, twice);
      expect(res.statusCode, res.body).toBe(status);
      if (message) expect(res.body).toMatch(message);
    }
    const notMultipart = await app.inject({
      method: 'PUT',
      url: '/api/v1/profile/photo',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { photo: 'x' },
    });
    expect(notMultipart.statusCode).toBe(415);
    expect((await photoOf(app, token)).statusCode).toBe(204);
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/profile/photo' });
    expect(anonymous.statusCode).toBe(401);
  });
});
