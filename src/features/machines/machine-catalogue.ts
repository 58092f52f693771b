import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';

/**
 * Every actor of `machines/` the /machines page draws. Adding a machine is one line: its id
 * (the machine's own `id`, which also names its coverage report), its source file, and a
 * loader returning the machine and the paths its model-based tests walk (the same
 * @xstate/graph call as the tests, from its `*.model.ts`). Loaders run only when the page
 * needs them, so no machine is in the app's first chunk because of this list.
 */
export interface TestPath {
  state: AnyMachineSnapshot;
  steps: ReadonlyArray<{ event: EventObject; state: AnyMachineSnapshot }>;
}

export interface LoadedMachine {
  machine: AnyStateMachine;
  /** The model-based test paths; absent for a machine without a model yet. */
  paths?: () => readonly TestPath[];
}

export interface CatalogueEntry {
  id: string;
  file: string;
  load: () => Promise<LoadedMachine>;
}

export const machineCatalogue: CatalogueEntry[] = [
  {
    id: 'ticketLifecycle',
    file: 'machines/ticket-lifecycle.machine.ts',
    load: async () => ({
      machine: (await import('#machines/ticket-lifecycle.machine.ts')).ticketLifecycleMachine,
      paths: (await import('#machines/ticket-lifecycle.model.ts')).ticketLifecyclePaths as () => TestPath[],
    }),
  },
  {
    id: 'ticketView',
    file: 'machines/ticket-view.machine.ts',
    load: async () => ({
      machine: (await import('#machines/ticket-view.machine.ts')).ticketViewMachine,
      paths: (await import('#machines/ticket-view.model.ts')).ticketViewTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'version-check',
    file: 'machines/version-check.machine.ts',
    load: async () => ({
      machine: (await import('#machines/version-check.machine.ts')).versionCheckMachine,
      paths: (await import('#machines/version-check.model.ts')).versionCheckTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'toast-queue',
    file: 'machines/toast-queue.machine.ts',
    load: async () => ({
      machine: (await import('#machines/toast-queue.machine.ts')).toastQueueMachine,
      paths: (await import('#machines/toast-queue.model.ts')).toastQueueTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'toast-timer',
    file: 'machines/toast-queue.machine.ts',
    load: async () => ({
      machine: (await import('#machines/toast-queue.machine.ts')).toastTimerMachine,
      paths: (await import('#machines/toast-queue.model.ts')).toastTimerTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'snackbar',
    file: 'machines/snackbar.machine.ts',
    load: async () => ({
      machine: (await import('#machines/snackbar.machine.ts')).snackbarMachine,
      paths: (await import('#machines/snackbar.model.ts')).snackbarTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'pagedSearch',
    file: 'machines/paged-search.machine.ts',
    load: async () => ({
      machine: (await import('#machines/paged-search.machine.ts')).pagedSearchMachine,
      paths: (await import('#machines/paged-search.model.ts')).pagedSearchTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'auth-session',
    file: 'machines/auth-session.machine.ts',
    load: async () => ({
      machine: (await import('#machines/auth-session.machine.ts')).authSessionMachine,
      paths: (await import('#machines/auth-session.model.ts')).authSessionTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'realtime-connection',
    file: 'machines/realtime-connection.machine.ts',
    load: async () => ({
      machine: (await import('#machines/realtime-connection.machine.ts')).realtimeConnectionMachine,
      paths: (await import('#machines/realtime-connection.model.ts')).realtimeConnectionTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'projectStatus',
    file: 'machines/exams/project-status.machine.ts',
    load: async () => ({
      machine: (await import('#machines/exams/project-status.machine.ts')).projectStatusMachine,
      paths: (await import('#machines/exams/exam-records.model.ts')).projectStatusTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'examStatus',
    file: 'machines/exams/exam-status.machine.ts',
    load: async () => ({
      machine: (await import('#machines/exams/exam-status.machine.ts')).examStatusMachine,
      paths: (await import('#machines/exams/exam-records.model.ts')).examStatusTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'season',
    file: 'machines/exams/season.machine.ts',
    load: async () => ({
      machine: (await import('#machines/exams/season.machine.ts')).seasonMachine,
      paths: (await import('#machines/exams/season.model.ts')).seasonTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'registration',
    file: 'machines/exams/registration.machine.ts',
    load: async () => ({
      machine: (await import('#machines/exams/registration.machine.ts')).registrationMachine,
      paths: (await import('#machines/exams/registration.model.ts')).registrationTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'delivery',
    file: 'machines/delivery.machine.ts',
    load: async () => ({
      machine: (await import('#machines/delivery.machine.ts')).deliveryMachine,
      paths: (await import('#machines/delivery.model.ts')).deliveryTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'deliverySitting',
    file: 'machines/delivery-sitting.machine.ts',
    load: async () => ({
      machine: (await import('#machines/delivery-sitting.machine.ts')).sittingMachine,
      paths: (await import('#machines/delivery-sitting.model.ts')).sittingTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'deliveryAutosave',
    file: 'machines/delivery-autosave.machine.ts',
    load: async () => ({
      machine: (await import('#machines/delivery-autosave.machine.ts')).autosaveMachine,
      paths: (await import('#machines/delivery-autosave.model.ts')).autosaveTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'deliveryConnection',
    file: 'machines/delivery-connection.machine.ts',
    load: async () => ({
      machine: (await import('#machines/delivery-connection.machine.ts')).connectionMachine,
      paths: (await import('#machines/delivery-connection.model.ts')).connectionTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'deliveryCountdown',
    file: 'machines/delivery-countdown.machine.ts',
    load: async () => ({
      machine: (await import('#machines/delivery-countdown.machine.ts')).countdownMachine,
      paths: (await import('#machines/delivery-countdown.model.ts')).countdownTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'deliveryCalculator',
    file: 'machines/delivery-calculator.machine.ts',
    load: async () => ({
      machine: (await import('#machines/delivery-calculator.machine.ts')).calculatorMachine,
      paths: (await import('#machines/delivery-calculator.model.ts')).calculatorTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'result',
    file: 'machines/results/result.machine.ts',
    load: async () => ({
      machine: (await import('#machines/results/result.machine.ts')).resultMachine,
      paths: (await import('#machines/results/result.model.ts')).resultTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'paperFlow',
    file: 'machines/papers/paper-flow.machine.ts',
    load: async () => ({
      machine: (await import('#machines/papers/paper-flow.machine.ts')).paperFlowMachine,
      paths: (await import('#machines/papers/paper-flow.model.ts')).paperFlowTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'dashboard-card',
    file: 'machines/dashboard-card.machine.ts',
    load: async () => ({
      machine: (await import('#machines/dashboard-card.machine.ts')).dashboardCardMachine,
      paths: (await import('#machines/dashboard-card.model.ts')).dashboardCardTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'notification-center',
    file: 'machines/notification-center.machine.ts',
    load: async () => ({
      machine: (await import('#machines/notification-center.machine.ts')).notificationCenterMachine,
      paths: (await import('#machines/notification-center.model.ts')).notificationCenterTestPaths as () => TestPath[],
    }),
  },
  {
    id: 'itemEditor',
    file: 'machines/items/item-editor.machine.ts',
    load: async () => ({
      machine: (await import('#machines/items/item-editor.machine.ts')).itemEditorMachine,
      paths: (await import('#machines/items/item-editor.model.ts')).itemEditorTestPaths as () => TestPath[],
    }),
  },
];

export function findCatalogueEntry(id: string): CatalogueEntry | undefined {
  return machineCatalogue.find((entry) => entry.id === id);
}
