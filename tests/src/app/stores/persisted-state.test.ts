import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The wiring of src/app/stores/persisted-state.ts as a page sees it: load, change, reload. */
async function loadApp() {
  vi.resetModules();
  const state = await import('#src/app/stores/persisted-state.ts');
  const slices = await import('#src/app/stores/slices.ts');
  return { ...state, ...slices };
}

beforeEach(() => {
  localStorage.clear();
  window.__APP_CONFIG__ = { persistSecret: 'test-persist-secret-0123456789', productKey: 'exam-portal' };
});
afterEach(() => {
  delete window.__APP_CONFIG__;
  vi.restoreAllMocks();
});

describe('persisted client state', () => {
  it('should save the persisted slices encrypted and restore them on the next load, leaving the others', async () => {
    const first = await loadApp();
    await first.rehydrateClientState();
    first.projectStore.trigger.select({ record: { projectId: 3, name: 'Entrance 2027' } });
    first.localizationStore.trigger.update({ i18n: 'fr' });
    first.userPermissionsStore.trigger.update({ permissions: ['Permissions.Users.View'] });
    first.seasonSetStore.trigger.select({ record: { setId: 'B' } });
    first.ticketStore.trigger.select({ record: { ticketId: 7 } });
    await first.clientPersistence.flush();

    const raw = localStorage.getItem('exam-portal:state')!;
    expect(Object.keys(JSON.parse(raw)).sort()).toEqual(['localization', 'project', 'seasonSet', 'userPermissions']);
    expect(raw).not.toContain('Entrance');

    const second = await loadApp();
    expect(second.projectStore).not.toBe(first.projectStore);
    const result = await second.rehydrateClientState();
    expect(result.status).toBe('restored');
    expect(second.projectStore.getSnapshot().context.selected).toEqual({ projectId: 3, name: 'Entrance 2027' });
    expect(second.localizationStore.getSnapshot().context.i18n).toBe('fr');
    expect(second.userPermissionsStore.getSnapshot().context.permissions).toEqual(['Permissions.Users.View']);
    expect(second.seasonSetStore.getSnapshot().context.selected).toEqual({ setId: 'B' });
    // The ticket slice is not a persisted one.
    expect(second.ticketStore.getSnapshot().context.selected).toBeNull();
  });

  it('should start clean and log why when the secret changed (a new deployment key)', async () => {
    const first = await loadApp();
    await first.rehydrateClientState();
    first.projectStore.trigger.select({ record: { projectId: 3 } });
    await first.clientPersistence.flush();

    window.__APP_CONFIG__ = { persistSecret: 'rotated-secret', productKey: 'exam-portal' };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const second = await loadApp();
    const result = await second.rehydrateClientState();
    expect(result.status).toBe('clean');
    expect(warn).toHaveBeenCalledWith('[persistence] project: Could not decrypt state. Please verify that you are using the correct secret key.');
    expect(second.projectStore.getSnapshot().context.selected).toBeNull();
    expect(localStorage.getItem('exam-portal:state')).toBeNull();
  });

  it('should report no configuration when the page has none', async () => {
    delete window.__APP_CONFIG__;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const app = await loadApp();
    const result = await app.rehydrateClientState();
    expect(result).toMatchObject({ status: 'disabled', failures: [{ reason: 'noConfiguration', message: 'No configuration provided.' }] });
    expect(warn).toHaveBeenCalledWith('[persistence] No configuration provided.');
  });

  it('should reset every slice and forget the saved state, keeping what it is told to keep', async () => {
    const app = await loadApp();
    await app.rehydrateClientState();
    app.projectStore.trigger.select({ record: { projectId: 3 } });
    app.projectStore.trigger.refresh();
    app.localizationStore.trigger.update({ i18n: 'hi' });
    app.menuStore.trigger.openDrawer({ drawerOpen: true });
    app.successMessageStore.trigger.update({ message: 'Saved.' });
    app.showProjectConfigStepperStore.trigger.update({ show: false });
    await app.clientPersistence.flush();
    expect(localStorage.getItem('exam-portal:state')).not.toBeNull();

    await app.resetClientState({ keep: ['localization'] });
    expect(app.projectStore.getSnapshot().context).toEqual({ selected: null, refresh: false });
    expect(app.menuStore.getSnapshot().context.drawerOpen).toBe(false);
    expect(app.successMessageStore.getSnapshot().context.message).toBeNull();
    expect(app.showProjectConfigStepperStore.getSnapshot().context.show).toBe(true);
    expect(app.localizationStore.getSnapshot().context.i18n).toBe('hi');
    await app.clientPersistence.flush();
    expect(localStorage.getItem('exam-portal:state')).toBeNull();
  });
});
