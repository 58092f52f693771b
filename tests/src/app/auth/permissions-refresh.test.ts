import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sessionApi = vi.hoisted(() => ({ permissions: vi.fn() }));
vi.mock('#src/app/auth/session-api.ts', () => ({ sessionApi }));

const { refreshPermissions, startPermissionsRefresh } = await import('#src/app/auth/permissions-refresh.ts');
const { authUserStore } = await import('#src/app/auth/auth-user-store.ts');
const { userPermissionsStore } = await import('#src/app/stores/slices.ts');

const signIn = (token: string | null) => authUserStore.trigger.set({ session: { ...authUserStore.getSnapshot().context, token } });
const held = () => userPermissionsStore.getSnapshot().context.permissions;

beforeEach(() => {
  userPermissionsStore.trigger.update({ permissions: ['Permissions.Dashboard.View'] });
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
  signIn(null);
});

describe('the permissions refresh', () => {
  it('should replace the held permissions with the server’s list', async () => {
    signIn('token-1');
    sessionApi.permissions.mockResolvedValue(['Permissions.Dashboard.View', 'Permissions.Machines.View']);
    await refreshPermissions();
    expect(sessionApi.permissions).toHaveBeenCalledWith('token-1');
    expect(held()).toEqual(['Permissions.Dashboard.View', 'Permissions.Machines.View']);
  });

  it('should ask nothing without a session and keep the list when the call fails', async () => {
    await refreshPermissions();
    expect(sessionApi.permissions).not.toHaveBeenCalled();
    signIn('token-2');
    sessionApi.permissions.mockRejectedValue({ status: 500 });
    await refreshPermissions();
    expect(held()).toEqual(['Permissions.Dashboard.View']);
  });

  it('should refresh at start, on focus and every interval, and stop when told', async () => {
    vi.useFakeTimers();
    signIn('token-3');
    sessionApi.permissions.mockResolvedValue(['Permissions.Dashboard.View']);
    const stop = startPermissionsRefresh(1_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(sessionApi.permissions).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sessionApi.permissions).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sessionApi.permissions).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    window.dispatchEvent(new Event('focus'));
    expect(sessionApi.permissions).toHaveBeenCalledTimes(3);
  });
});
