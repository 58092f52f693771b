import { deflateSync } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '#tests/setup/test-users.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';

/**
 * Issue 21's profile photo in Chromium (docs/decisions/0264): on /account a candidate's avatar
 * shows her initials; she uploads a PNG through the page's file control and the header's avatar
 * and the page's show it; a file over 1 MB, a text file and a GIF named .png are refused with
 * the app's texts and the photo stays; a reload keeps it; Remove brings the initials back.
 */
const MAX_PHOTO_BYTES = 1024 * 1024;

let server: RunningServer;
let browser: Browser;
let candidate: TestUser;
let tab: SignedInPage;

beforeAll(async () => {
  const prepared = await seededDataDir(async (db) => ({
    candidate: await createUser(db, { roles: ['Candidate'], firstName: 'Meera', lastName: 'Iyer' }),
  }));
  candidate = prepared.value.candidate;
  [server, browser] = await Promise.all([startServer({ dataDir: prepared.dataDir }), launchBrowser()]);
  tab = await signedInPage(browser, server, candidate);
}, 180_000);

afterAll(async () => {
  await tab?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

// --- A PNG written byte by byte (RFC 2083): signature, IHDR, one IDAT, IEND, each chunk with its CRC-32.
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
/** A solid RGB image of the given size: its width is what the browser's decoded <img> reports. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
/** The smallest GIF: header, 1×1 screen with a two-colour table, one image, trailer. */
const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=', 'base64');

const headerAvatar = (page: Page) => page.getByTestId('user-menu').getByTestId('avatar');
const photoSection = (page: Page) => page.getByTestId('profile-photo');
/** The header's avatar and both on /account (the details card and the photo card). */
const allAvatars = (page: Page) => [
  headerAvatar(page),
  page.locator('form[aria-labelledby="profile-details-title"]').getByTestId('avatar'),
  photoSection(page).getByTestId('avatar'),
];

/** The width of the picture the avatar shows, decoded by the browser; 0 while it shows initials. */
const shownPhotoWidth = (avatar: Locator) =>
  avatar.evaluate((root) => {
    const img = root.querySelector('img');
    return img && !img.hidden && img.complete && getComputedStyle(img).display !== 'none' ? img.naturalWidth : 0;
  });
/** The initials the avatar shows, or null when they are hidden behind a photo. */
const shownInitials = (avatar: Locator) =>
  avatar.evaluate((root) => {
    const fallback = [...root.children].find((child) => child.tagName !== 'IMG') as HTMLElement | undefined;
    return fallback && fallback.checkVisibility() ? (fallback.textContent ?? '') : null;
  });

async function expectPhoto(page: Page, width: number) {
  for (const avatar of allAvatars(page)) {
    await expect.poll(() => shownPhotoWidth(avatar), { timeout: 10_000 }).toBe(width);
    await expect(shownInitials(avatar)).resolves.toBeNull();
  }
  await expect(photoSection(page).getByTestId('profile-photo-state').textContent()).resolves.toBe('This photo is your avatar.');
}

async function expectInitials(page: Page) {
  for (const avatar of allAvatars(page)) {
    await expect.poll(() => shownInitials(avatar), { timeout: 10_000 }).toBe('MI');
    await expect(shownPhotoWidth(avatar)).resolves.toBe(0);
  }
  await expect(photoSection(page).getByTestId('profile-photo-state').textContent()).resolves.toBe('No photo: your initials are your avatar.');
}

async function openAccount(page: Page) {
  await page.goto('/account');
  await page.getByRole('heading', { level: 1, name: 'My profile' }).waitFor({ timeout: 20_000 });
  await page.getByRole('heading', { level: 2, name: 'Meera Iyer' }).waitFor();
  await photoSection(page).waitFor();
}

const choose = (page: Page, file: { name: string; mimeType: string; buffer: Buffer }) => photoSection(page).getByTestId('file-input').setInputFiles(file);

/** What the server holds, asked over HTTP with the tab's first token. */
const storedPhoto = async () => {
  const res = await fetch(`${server.url}/api/v1/profile/photo`, { headers: { authorization: `Bearer ${tab.token}`, tenant: 'root' } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('the profile photo in Chromium', { timeout: 120_000 }, () => {
  const first = png(8, 6, [200, 40, 40]);
  const second = png(12, 12, [30, 120, 200]);

  it('should show the initials, then an uploaded PNG in the header and on /account', async () => {
    const { page, errors } = tab;
    // A retry starts where the first run did: no photo.
    await fetch(`${server.url}/api/v1/profile/photo`, { method: 'DELETE', headers: { authorization: `Bearer ${tab.token}`, tenant: 'root' } });
    await openAccount(page);
    await expectInitials(page);
    await expect(photoSection(page).getByRole('button', { name: 'Remove photo' }).count()).resolves.toBe(0);
    await expect(photoSection(page).getByRole('button', { name: 'Upload photo' }).isDisabled()).resolves.toBe(true);

    await choose(page, { name: 'meera.png', mimeType: 'image/png', buffer: first });
    await photoSection(page).getByText('meera.png').waitFor();
    await photoSection(page).getByRole('button', { name: 'Upload photo' }).click();
    await page.getByText('Your photo is saved.').waitFor();
    await expectPhoto(page, 8);
    // The chosen file is cleared once it is the photo.
    await expect(photoSection(page).getByText('meera.png').count()).resolves.toBe(0);
    await expect(storedPhoto()).resolves.toMatchObject({ status: 200, type: 'image/png', bytes: first });

    // A second upload replaces the first everywhere.
    await choose(page, { name: 'meera-blue.png', mimeType: 'image/png', buffer: second });
    await photoSection(page).getByRole('button', { name: 'Upload photo' }).click();
    await expectPhoto(page, 12);
    await expect(storedPhoto()).resolves.toMatchObject({ status: 200, bytes: second });
    await screenshot(page, 'profile-photo-uploaded');
    expect(errors).toEqual([]);
  });

  it('should refuse a file over 1 MB, a text file and a GIF named .png with their texts, and keep the photo', async () => {
    const { page, errors } = tab;
    const alert = photoSection(page).getByRole('alert');

    // Over the limit: refused on the spot, before any upload.
    const big = Buffer.concat([second, Buffer.alloc(MAX_PHOTO_BYTES + 1 - second.length)]);
    await choose(page, { name: 'big-photo.png', mimeType: 'image/png', buffer: big });
    await alert.getByText('big-photo.png is larger than 1 MB.').waitFor();
    await expect(photoSection(page).getByRole('button', { name: 'Upload photo' }).isDisabled()).resolves.toBe(true);

    // Not an image type the control accepts.
    await choose(page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
    await alert.getByText('notes.txt cannot be added here.').waitFor();
    await expect(photoSection(page).getByRole('button', { name: 'Upload photo' }).isDisabled()).resolves.toBe(true);
    await expectPhoto(page, 12);

    // A GIF that calls itself a PNG passes the browser's check; the server reads the bytes and refuses it.
    await choose(page, { name: 'disguised.png', mimeType: 'image/png', buffer: gif });
    await photoSection(page).getByText('disguised.png').waitFor();
    await expect(alert.count()).resolves.toBe(0);
    await photoSection(page).getByRole('button', { name: 'Upload photo' }).click();
    await page.getByTestId('error-toast').getByText('disguised.png is not a PNG, JPEG or WebP image.').waitFor();
    await expectPhoto(page, 12);
    await expect(storedPhoto()).resolves.toMatchObject({ status: 200, bytes: second });
    await screenshot(page, 'profile-photo-refused');
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 415 (Unsupported Media Type)']);
    errors.length = 0;
  });

  it('should keep the photo over a reload and pass axe with it', async () => {
    const { page, errors } = tab;
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My profile' }).waitFor({ timeout: 20_000 });
    await expectPhoto(page, 12);
    // The whole page as the a11y audit sees it (tests/e2e/support/a11y-routes.ts): languages, sessions and sign-ins loaded.
    await page.getByText('No languages yet.').or(page.getByTestId('language-list')).waitFor();
    await page.getByTestId('session').first().waitFor();
    await page.getByTestId('sign-in').first().waitFor();
    await expectAccessible(page, 'the account page with a photo');
    expect(errors).toEqual([]);
  });

  it('should return to the initials on Remove, also after a reload', async () => {
    const { page, errors } = tab;
    await photoSection(page).getByRole('button', { name: 'Remove photo' }).click();
    await page.getByText('Your photo is removed: your initials show.').waitFor();
    await expectInitials(page);
    await expect(photoSection(page).getByRole('button', { name: 'Remove photo' }).count()).resolves.toBe(0);
    await expect(storedPhoto()).resolves.toMatchObject({ status: 204 });

    await page.reload();
    await openAccount(page);
    await expectInitials(page);
    expect(errors).toEqual([]);
  });
});
