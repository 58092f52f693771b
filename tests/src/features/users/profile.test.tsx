import { screen, within } from '@testing-library/react';
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
}));
vi.mock('#src/features/users/api/profile-api.ts', () => ({ profileApi }));

const inbox = vi.hoisted(() => ({ preferences: vi.fn(), savePreferences: vi.fn() }));
vi.mock('#src/features/inbox/index.ts', () => ({ inboxApi: inbox }));

const signOut = vi.hoisted(() => vi.fn(async () => {}));
vi.mock('#src/app/auth/auth-session-loader.ts', () => ({ signOut }));

import { ActiveSessions, NotificationPreferences, ProfileDetails, RecentSignIns } from '#src/features/users/profile-sections.tsx';

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
