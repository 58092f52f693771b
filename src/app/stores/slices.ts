import { localizationStore } from './localization-store.ts';
import { menuStore } from './menu-store.ts';
import { createPermissionsStore } from './permissions-store.ts';
import { createProjectStore } from './project-store.ts';
import { createSelectionStore } from './selection-store.ts';
import { createStepperStore, createSuccessMessageStore, createValueStore } from './value-stores.ts';

/**
 * Every client state slice of spec §4 that is a store. The snackbar slice is the snackbar
 * actor (src/app/notifications), the authenticated user belongs to the auth-session actor.
 * Views read them with `useSelector(projectStore, (s) => s.context.selected)`.
 */
export const userStore = createSelectionStore();
export const projectStore = createProjectStore();
export const itemWorkspaceStore = createSelectionStore();
export const paperWorkspaceStore = createSelectionStore();
export const examStore = createSelectionStore();
export const registrationStore = createSelectionStore();
export const paperStore = createSelectionStore();
export const sectionStore = createSelectionStore();
export const setStore = createSelectionStore();
export const deliveryStore = createSelectionStore();
export const resultStore = createSelectionStore();
export const projectTemplateStore = createSelectionStore();
export const roleStore = createSelectionStore();
export const ticketStore = createSelectionStore();
export const examCenterStore = createSelectionStore();
export const seasonStore = createSelectionStore();
export const seasonPaperStore = createSelectionStore();
export const seasonSectionStore = createSelectionStore();
export const seasonSetStore = createSelectionStore();
export const seasonCenterStore = createSelectionStore();
export const categoryStore = createSelectionStore();
export const categoryFileStore = createSelectionStore();
export const exportTemplateStore = createSelectionStore();
export const flowStore = createSelectionStore();
export const itemTypeStore = createSelectionStore();
export const userPermissionsStore = createPermissionsStore();
export const examPermissionsStore = createPermissionsStore();
export const projectStatusStore = createValueStore();
export const showProjectConfigStepperStore = createStepperStore();
export const errorDetailStore = createValueStore();
export const successMessageStore = createSuccessMessageStore();
export { localizationStore, menuStore };

export const sliceStores = {
  user: userStore,
  project: projectStore,
  itemWorkspace: itemWorkspaceStore,
  paperWorkspace: paperWorkspaceStore,
  exam: examStore,
  registration: registrationStore,
  paper: paperStore,
  section: sectionStore,
  set: setStore,
  delivery: deliveryStore,
  result: resultStore,
  projectTemplate: projectTemplateStore,
  role: roleStore,
  ticket: ticketStore,
  examCenter: examCenterStore,
  season: seasonStore,
  seasonPaper: seasonPaperStore,
  seasonSection: seasonSectionStore,
  seasonSet: seasonSetStore,
  seasonCenter: seasonCenterStore,
  category: categoryStore,
  categoryFile: categoryFileStore,
  exportTemplate: exportTemplateStore,
  flow: flowStore,
  itemType: itemTypeStore,
  menu: menuStore,
  localization: localizationStore,
  userPermissions: userPermissionsStore,
  projectStatus: projectStatusStore,
  examPermissions: examPermissionsStore,
  showProjectConfigStepper: showProjectConfigStepperStore,
  errorDetail: errorDetailStore,
  successMessage: successMessageStore,
} as const;

export type SliceName = keyof typeof sliceStores;

/** Spec §4 "Persistence": the slices saved locally (authUser registers itself with its actor). */
export const persistedSliceNames = [
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
] as const;
