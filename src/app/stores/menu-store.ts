import { createStore } from '@xstate/store';

/** Breadcrumb data a screen can set for a dynamic segment (e.g. a ticket's title). */
export interface DynamicBreadcrumb {
  path: string;
  title: string;
}

/** The menu slice of spec §3, with the defaults of spec §2 and §4. */
export interface MenuState {
  openItem: string[];
  openComponent: string;
  drawerOpen: boolean;
  componentDrawerOpen: boolean;
  selectedDynamicBreadCrumData: DynamicBreadcrumb[] | null;
  selectedBCName: string | null;
}

export const initialMenuState: MenuState = {
  openItem: ['dashboard'],
  openComponent: 'buttons',
  drawerOpen: false,
  componentDrawerOpen: true,
  selectedDynamicBreadCrumData: null,
  selectedBCName: null,
};

export function createMenuStore(initial: MenuState = initialMenuState) {
  return createStore({
    context: initial,
    on: {
      activeItem: (context, event: { openItem: string[] }) => ({ ...context, openItem: event.openItem }),
      activeComponent: (context, event: { openComponent: string }) => ({ ...context, openComponent: event.openComponent }),
      openDrawer: (context, event: { drawerOpen: boolean }) => ({ ...context, drawerOpen: event.drawerOpen }),
      openComponentDrawer: (context, event: { componentDrawerOpen: boolean }) => ({
        ...context,
        componentDrawerOpen: event.componentDrawerOpen,
      }),
      setDynamicBreadcrumb: (context, event: { data: DynamicBreadcrumb[] | null; name: string | null }) => ({
        ...context,
        selectedDynamicBreadCrumData: event.data,
        selectedBCName: event.name,
      }),
      reset: () => initial,
    },
  });
}

export const menuStore = createMenuStore();
export type MenuStore = ReturnType<typeof createMenuStore>;
