import { localizationStore } from '#src/app/stores/localization-store.ts';
import { selectedWorkspaceIds } from '#src/app/stores/workspace-selection.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { appConfig } from '#src/lib/config.ts';
import { httpAuth } from './auth-bridge.ts';
import { bannerStore } from './banner-store.ts';
import { createHttpClients } from './clients.ts';

/**
 * The app's HTTP clients. This module pulls in axios, so it is only ever loaded through a
 * dynamic import (src/lib/http/api.ts): axios stays out of the first render.
 */
export const httpClients = createHttpClients(appConfig, {
  auth: httpAuth,
  language: () => localizationStore.getSnapshot().context.i18n,
  now: () => new Date(),
  workspace: selectedWorkspaceIds,
  showError: (subject) => {
    notify.error(subject).catch((error: unknown) => console.error('The error toast could not be shown', error));
  },
  banner: {
    show: () => bannerStore.trigger.show({ message: 'technicalDifficulties' }),
    clear: () => bannerStore.trigger.clear(),
    unreachable: () => bannerStore.trigger.show({ message: 'network' }),
  },
});
