import { describe, expect, it } from 'vitest';
import { createMenuStore, initialMenuState } from '#src/app/stores/menu-store.ts';

describe('menu store', () => {
  it('should start with the spec defaults', () => {
    expect(createMenuStore().getSnapshot().context).toEqual({
      openItem: ['dashboard'],
      openComponent: 'buttons',
      drawerOpen: false,
      componentDrawerOpen: true,
      selectedDynamicBreadCrumData: null,
      selectedBCName: null,
    });
  });

  it('should update each field through its event and reset to the defaults', () => {
    const store = createMenuStore();
    store.trigger.activeItem({ openItem: ['tickets'] });
    store.trigger.activeComponent({ openComponent: 'cards' });
    store.trigger.openDrawer({ drawerOpen: true });
    store.trigger.openComponentDrawer({ componentDrawerOpen: false });
    store.trigger.setDynamicBreadcrumb({ data: [{ path: '/tickets/7', title: 'Printer on fire' }], name: 'ticket' });
    expect(store.getSnapshot().context).toEqual({
      openItem: ['tickets'],
      openComponent: 'cards',
      drawerOpen: true,
      componentDrawerOpen: false,
      selectedDynamicBreadCrumData: [{ path: '/tickets/7', title: 'Printer on fire' }],
      selectedBCName: 'ticket',
    });
    store.trigger.reset();
    expect(store.getSnapshot().context).toEqual(initialMenuState);
  });
});
