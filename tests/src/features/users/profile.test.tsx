import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';

const profileApi = vi.hoisted(() => ({
  get: vi.fn(),
  update: vi.fn(),
  sessions: vi.fn(),
  revoke: vi.fn(),
  revokeOthers: vi.fn(),
  signIns: vi.fn(),
  uploadPhoto: vi.fn(),
  removePhoto: vi.fn(),
}));
vi.mock('#src/features/users/api/profile-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/users/api/profile-api.ts')>()),
  profileApi,
}));

const transfer = vi.hoisted(() => ({ download: vi.fn(), upload: vi.fn() }));
vi.mock('#src/lib/http/transfer.ts', () => transfer);

const inbox = vi.hoisted(() => ({ preferences: vi.fn(), savePreferences: vi.fn() }));
vi.mock('#src/features/inbox/index.ts', () => ({ inboxApi: inbox }));

const signOut = vi.hoisted(() => vi.fn(async () => {}));
vi.mock('#src/app/auth/auth-session-loader.ts', () => ({ signOut }));

import { authUserStore, emptyAuthUser } from '#src/app/auth/auth-user-store.ts';
import { resetProfilePhoto } from '#src/app/auth/profile-photo.ts';
import { ActiveSessions, NotificationPreferences, ProfileDetails, ProfilePhoto, RecentSignIns } from '#src/features/users/profile-sections.tsx';

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['users', 'notifications', 'ui']);
});

const profile = {
  id: 'u1',
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha@example.test',
  userName: 'asha',
  phoneNumber: null,
  dateOfBirth: '2001-02-03',
  preferredLanguage: 'gu',
  languages: ['gu', 'hi'],
  roles: ['Candidate'],
  editable: ['firstName', 'lastName', 'phoneNumber', 'dateOfBirth'],
};

beforeEach(() => {
  vi.clearAllMocks();
  profileApi.get.mockResolvedValue(profile);
  resetProfilePhoto();
});

describe('the profile', () => {
  it('should show the details with languages by name, the e-mail read-only, and server errors per field', async () => {
    profileApi.update.mockRejectedValueOnce({ errors: { phoneNumber: ['Use digits, spaces and + ( ) - . only.'] } });
    const { user } = renderAt('/account', <ProfileDetails />);
    expect(await screen.findByRole('heading', { name: 'Asha Rao' })).toBeInTheDocument();
    expect(screen.getByText('Languages: Gujarati, Hindi')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');
    await user.type(screen.getByLabelText('Phone number'), 'call me');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(profileApi.update).toHaveBeenCalledWith({ firstName: 'Asha', lastName: 'Rao', phoneNumber: 'call me', dateOfBirth: '2001-02-03' });
    expect(await screen.findByText('Use digits, spaces and + ( ) - . only.')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('aria-invalid', 'true');
  });

  it('should list sessions with readable devices, sign out another one, everywhere else, and this device', async () => {
    profileApi.sessions.mockResolvedValue({
      sessions: [
        {
          id: 's1',
          current: true,
          createdOn: '2026-12-01T08:00:00Z',
          lastUsedOn: '2026-12-02T08:00:00Z',
          ipAddress: '10.0.0.1',
          device: { browser: 'Chrome 131', os: 'Windows 10', platform: 'desktop' },
        },
        {
          id: 's2',
          current: false,
          createdOn: '2026-11-30T08:00:00Z',
          lastUsedOn: '2026-11-30T09:00:00Z',
          ipAddress: '10.0.0.2',
          device: { browser: 'Safari 17', os: 'iOS 17.5', platform: 'mobile' },
        },
      ],
    });
    profileApi.revoke.mockResolvedValue({ revoked: 1, current: false });
    profileApi.revokeOthers.mockResolvedValue({ revoked: 1 });
    const { user } = renderAt('/account', <ActiveSessions />);
    const rows = await screen.findAllByTestId('session');
    expect(rows[0]).toHaveTextContent('Chrome 131 on Windows 10');
    expect(rows[0]).toHaveTextContent('This device');
    await user.click(within(rows[1]).getByRole('button', { name: 'Sign out Safari 17 on iOS 17.5' }));
    expect(profileApi.revoke).toHaveBeenCalledWith('s2');
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(profileApi.revokeOthers).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Sign out this device' }));
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('should show failed sign-ins with their reason', async () => {
    profileApi.signIns.mockResolvedValue({
      data: [
        {
          id: 'h1',
          time: '2026-12-02T08:00:00Z',
          event: 'loginFailed',
          outcome: 'failure',
          reason: 'invalidPassword',
          ipAddress: '10.0.0.9',
          device: { browser: 'Firefox 133', os: 'Ubuntu', platform: 'desktop' },
        },
        {
          id: 'h2',
          time: '2026-12-02T07:00:00Z',
          event: 'login',
          outcome: 'success',
          reason: null,
          ipAddress: null,
          device: { browser: null, os: null, platform: null },
        },
      ],
    });
    renderAt('/account', <RecentSignIns />);
    const rows = await screen.findAllByTestId('sign-in');
    expect(rows[0]).toHaveTextContent('Sign-in failed — wrong password');
    expect(rows[0]).toHaveTextContent('Firefox 133 on Ubuntu');
    expect(rows[1]).toHaveTextContent('Signed in');
    expect(rows[1]).toHaveTextContent('Unknown device');
  });

  it('should show a channel per kind and save a change', async () => {
    const rows = [
      { kind: 'ticket.reply', channel: 'inApp', defaultChannel: 'inApp' },
      { kind: 'results.published', channel: 'both', defaultChannel: 'both' },
    ];
    inbox.preferences.mockResolvedValue({ preferences: rows });
    inbox.savePreferences.mockResolvedValue({ preferences: [{ ...rows[0], channel: 'none' }, rows[1]] });
    const { user } = renderAt('/account', <NotificationPreferences />);
    const reply = await screen.findByTestId('preference-ticket.reply');
    expect(reply).toHaveTextContent('Replies on tickets');
    expect(reply).toHaveTextContent('In the app');
    await user.click(within(reply).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'None' }));
    expect(inbox.savePreferences).toHaveBeenCalledWith([{ kind: 'ticket.reply', channel: 'none' }]);
  });
});

describe('the profile photo', () => {
  let urls = 0;
  beforeEach(() => {
    urls = 0;
    // jsdom has no object URLs: each blob gets a numbered one.
    URL.createObjectURL = vi.fn(() => `blob:photo-${++urls}`);
    URL.revokeObjectURL = vi.fn();
    authUserStore.trigger.set({
      session: { ...emptyAuthUser, isLoggedIn: true, authenticated: true, token: 't', user: { user_id: 'u1', name: 'Asha', surname: 'Rao' } },
    });
  });

  const photoOf = (section: HTMLElement) => section.querySelector('img')?.getAttribute('src') ?? null;

  it('should show the initials without a photo, upload a chosen photo as the avatar, and remove it again', async () => {
    transfer.download.mockResolvedValue({ blob: new Blob([]), filename: null, contentType: null });
    profileApi.uploadPhoto.mockResolvedValue({ mime: 'image/png', sizeBytes: 3, updatedOn: '2026-12-02T10:00:00Z' });
    profileApi.removePhoto.mockResolvedValue(undefined);
    const { user } = renderAt('/account', <ProfilePhoto />);
    const section = await screen.findByTestId('profile-photo');
    await waitFor(() => expect(transfer.download).toHaveBeenCalledWith('userService', expect.objectContaining({ url: '/v1/profile/photo', method: 'GET' })));
    expect(within(section).getByTestId('profile-photo-state')).toHaveTextContent('No photo: your initials are your avatar.');
    expect(within(section).getByTestId('avatar')).toHaveTextContent('AR');
    expect(photoOf(section)).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Remove photo' })).toBeNull();
    expect(within(section).getByRole('button', { name: 'Upload photo' })).toBeDisabled();

    const file = new File([new Uint8Array([137, 80, 78])], 'me.png', { type: 'image/png' });
    await user.upload(section.querySelector('input[type=file]') as HTMLInputElement, file);
    await user.click(within(section).getByRole('button', { name: 'Upload photo' }));
    expect(profileApi.uploadPhoto).toHaveBeenCalledWith(file);
    await waitFor(() => expect(within(section).getByTestId('profile-photo-state')).toHaveTextContent('This photo is your avatar.'));
    expect(photoOf(section)).toBe('blob:photo-1');

    await user.click(within(section).getByRole('button', { name: 'Remove photo' }));
    expect(profileApi.removePhoto).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(within(section).getByTestId('profile-photo-state')).toHaveTextContent('No photo: your initials are your avatar.'));
    expect(photoOf(section)).toBeNull();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:photo-1');
  });

  it('should show the saved photo, refuse a file over 1 MB on the spot, and keep the photo when the upload fails', async () => {
    transfer.download.mockResolvedValue({ blob: new Blob(['png'], { type: 'image/png' }), filename: null, contentType: 'image/png' });
    profileApi.uploadPhoto.mockRejectedValue({ messages: ['me.png is not a PNG, JPEG or WebP image.'], statusCode: 415 });
    const { user } = renderAt('/account', <ProfilePhoto />);
    const section = await screen.findByTestId('profile-photo');
    await waitFor(() => expect(photoOf(section)).toBe('blob:photo-1'));
    const input = section.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File([new Uint8Array(1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }));
    expect(await within(section).findByText(/huge\.png/)).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Upload photo' })).toBeDisabled();

    await user.upload(input, new File(['<svg/>'], 'me.png', { type: 'image/png' }));
    await user.click(within(section).getByRole('button', { name: 'Upload photo' }));
    await waitFor(() => expect(profileApi.uploadPhoto).toHaveBeenCalledTimes(1));
    expect(photoOf(section)).toBe('blob:photo-1');
    expect(within(section).getByTestId('profile-photo-state')).toHaveTextContent('This photo is your avatar.');
  });
});
