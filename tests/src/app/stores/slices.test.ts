import { describe, expect, it } from 'vitest';
import { createPermissionsStore } from '#src/app/stores/permissions-store.ts';
import { createProjectStore } from '#src/app/stores/project-store.ts';
import { createSelectionStore } from '#src/app/stores/selection-store.ts';
import { persistedSliceNames, sliceStores } from '#src/app/stores/slices.ts';
import { createStepperStore, createSuccessMessageStore, createValueStore } from '#src/app/stores/value-stores.ts';

const cyclic = () => {
  const record: Record<string, unknown> = { id: 1 };
  record.self = record;
  return record;
};

describe('client state slices', () => {
  it('should have a store for every slice of spec §4 (the snackbar and the authenticated user are actors)', () => {
    const spec = [
      'user',
      'project',
      'itemWorkspace',
      'paperWorkspace',
      'exam',
      'registration',
      'paper',
      'section',
      'set',
      'delivery',
      'result',
      'projectTemplate',
      'role',
      'ticket',
      'examCenter',
      'season',
      'seasonPaper',
      'seasonSection',
      'seasonSet',
      'seasonCenter',
      'category',
      'categoryFile',
      'exportTemplate',
      'flow',
      'itemType',
      'menu',
      'localization',
      'userPermissions',
      'projectStatus',
      'examPermissions',
    ];
    const extra = ['showProjectConfigStepper', 'errorDetail', 'successMessage'];
    expect(Object.keys(sliceStores).sort()).toEqual([...spec, ...extra].sort());
  });

  it('should persist exactly the slices spec §4 lists', () => {
    expect([...persistedSliceNames]).toEqual([
      'authUser',
      'userPermissions',
      'localization',
      'project',
      'itemWorkspace',
      'paperWorkspace',
      'exam',
      'registration',
      'paper',
      'section',
      'set',
      'delivery',
      'projectStatus',
      'user',
      'result',
      'projectTemplate',
      'season',
      'seasonPaper',
      'seasonSection',
      'seasonSet',
      'seasonCenter',
      'category',
      'categoryFile',
    ]);
  });
});

describe('selection slice', () => {
  it('should hold null at first and store the selected payload', () => {
    const store = createSelectionStore();
    expect(store.getSnapshot().context).toEqual({ selected: null });
    const record = { examId: 12, name: 'Physics, Paper II' };
    store.trigger.select({ record });
    expect(store.getSnapshot().context).toEqual({ selected: { examId: 12, name: 'Physics, Paper II' } });
    // A copy: changing the caller's object later does not change the slice.
    record.name = 'changed';
    expect(store.getSnapshot().context.selected).toEqual({ examId: 12, name: 'Physics, Paper II' });
  });

  it('should reset to null on remove', () => {
    const store = createSelectionStore();
    store.trigger.select({ record: { id: 1 } });
    store.trigger.remove();
    expect(store.getSnapshot().context.selected).toBeNull();
  });

  it('should reset to null when storing fails', () => {
    const store = createSelectionStore();
    store.trigger.select({ record: { id: 1 } });
    store.trigger.select({ record: cyclic() });
    expect(store.getSnapshot().context.selected).toBeNull();
    store.trigger.select({ record: { id: 2 } });
    store.trigger.select({ record: 'not a record' as never });
    expect(store.getSnapshot().context.selected).toBeNull();
    store.trigger.select({ record: { id: 3 } });
    store.trigger.failure();
    expect(store.getSnapshot().context.selected).toBeNull();
  });

  it('should store the selected season on update and clear it on failure', () => {
    const season = sliceStores.season;
    season.trigger.update({ record: { seasonId: 4, name: 'Winter 2026' } });
    expect(season.getSnapshot().context.selected).toEqual({ seasonId: 4, name: 'Winter 2026' });
    season.trigger.failure();
    expect(season.getSnapshot().context.selected).toBeNull();
  });

  it('should remove the selected user and exam when their update throws', () => {
    for (const store of [sliceStores.user, sliceStores.exam]) {
      store.trigger.update({ record: { id: 'a' } });
      store.trigger.update({ record: { id: 'b', big: BigInt(1) } as never });
      expect(store.getSnapshot().context.selected).toBeNull();
    }
  });

  it('should restore only a record or null from saved state', () => {
    const store = createSelectionStore();
    store.trigger.hydrate({ state: { selected: { id: 9 } } });
    expect(store.getSnapshot().context.selected).toEqual({ id: 9 });
    store.trigger.hydrate({ state: { selected: [1, 2] } });
    expect(store.getSnapshot().context.selected).toBeNull();
    store.trigger.hydrate({ state: 'garbage' });
    expect(store.getSnapshot().context.selected).toBeNull();
  });
});

describe('project slice', () => {
  it('should flip its refresh flag on each refresh and reset everything', () => {
    const store = createProjectStore();
    store.trigger.select({ record: { projectId: 1 } });
    store.trigger.refresh();
    expect(store.getSnapshot().context).toEqual({ selected: { projectId: 1 }, refresh: true });
    store.trigger.refresh();
    expect(store.getSnapshot().context.refresh).toBe(false);
    store.trigger.refresh();
    store.trigger.reset();
    expect(store.getSnapshot().context).toEqual({ selected: null, refresh: false });
  });

  it('should keep the refresh flag when the selection is removed', () => {
    const store = createProjectStore();
    store.trigger.refresh();
    store.trigger.select({ record: { projectId: 1 } });
    store.trigger.remove();
    expect(store.getSnapshot().context).toEqual({ selected: null, refresh: true });
  });
});

describe('show-project-config-stepper slice', () => {
  it('should default to true, take the given value, and go back to true on remove', () => {
    const store = createStepperStore();
    expect(store.getSnapshot().context.show).toBe(true);
    store.trigger.update({ show: false });
    expect(store.getSnapshot().context.show).toBe(false);
    store.trigger.remove();
    expect(store.getSnapshot().context.show).toBe(true);
  });
});

describe('error-detail slice', () => {
  it('should store a value, remove it, and remove it when an update fails', () => {
    const store = createValueStore();
    store.trigger.update({ value: { errorId: 'e-1', messages: ['x'] } });
    expect(store.getSnapshot().context.value).toEqual({ errorId: 'e-1', messages: ['x'] });
    store.trigger.remove();
    expect(store.getSnapshot().context.value).toBeNull();
    store.trigger.update({ value: 'kept' });
    store.trigger.update({ value: cyclic() });
    expect(store.getSnapshot().context.value).toBeNull();
  });
});

describe('success-message slice', () => {
  it('should store a message, remove it, and remove it when an update fails', () => {
    const store = createSuccessMessageStore();
    store.trigger.update({ message: 'User created.' });
    expect(store.getSnapshot().context.message).toBe('User created.');
    store.trigger.update({ message: { not: 'a message' } });
    expect(store.getSnapshot().context.message).toBeNull();
    store.trigger.update({ message: 'Again.' });
    store.trigger.remove();
    expect(store.getSnapshot().context.message).toBeNull();
  });
});

describe('permissions slice', () => {
  it('should hold a list of permission strings, replaced on update and emptied on remove', () => {
    const store = createPermissionsStore();
    store.trigger.update({ permissions: ['Permissions.Users.View', 'Permissions.Users.View', 'Permissions.SupportTickets.Work', 7] });
    expect(store.getSnapshot().context.permissions).toEqual(['Permissions.Users.View', 'Permissions.SupportTickets.Work']);
    store.trigger.update({ permissions: 'Permissions.Users.View' });
    expect(store.getSnapshot().context.permissions).toEqual([]);
    store.trigger.update({ permissions: ['Permissions.Roles.View'] });
    store.trigger.remove();
    expect(store.getSnapshot().context.permissions).toEqual([]);
  });
});
