import { createActor } from 'xstate';
import { versionCheckMachine } from '#machines/version-check.machine.ts';
import { APP_VERSION, appConfig } from '#src/lib/config.ts';
import { registerLiveActor } from './live-actors.ts';

/** Session storage: the deployed version this tab already reloaded for (no reload loop). */
export const reloadMarkerKey = `${appConfig.productKey}:reloaded-for-version`;

function readMarker(): string | null {
  try {
    return sessionStorage.getItem(reloadMarkerKey);
  } catch {
    return null;
  }
}

/** Runs the version check of spec §4 (this module loads xstate; main.tsx imports it lazily). */
export function runVersionCheck() {
  const machine = versionCheckMachine.provide({
    actions: {
      reload: ({ context }) => {
        try {
          sessionStorage.setItem(reloadMarkerKey, context.deployedVersion ?? '');
        } catch {
          // Without session storage a second reload could follow; the caches are gone anyway.
        }
        window.location.reload();
      },
    },
  });
  const actor = createActor(machine, { input: { currentVersion: APP_VERSION, reloadedFor: readMarker() }, systemId: 'version-check' });
  // Registered before it starts, so the live mode of /machines lists its first events too.
  registerLiveActor('version-check', versionCheckMachine, actor);
  return actor.start();
}
