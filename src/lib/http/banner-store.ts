import { createStore } from '@xstate/store';
import type { CatalogueKey } from '#src/lib/error-catalogue.ts';

/**
 * The banner of spec §8: after a call that ends in a 401 with a response body it says "We're
 * currently experiencing technical difficulties. Please try again later."; any other outcome of
 * a call clears it (docs/decisions/0011). Holds a catalogue key; the banner view translates it.
 *
 * Issue 23: while the server cannot be reached (a call got no response, or the browser went
 * offline) the banner says the network message of spec §8 — one message, instead of a toast per
 * failed call beside an inline copy. The next call that gets any answer clears it.
 */
export const bannerStore = createStore({
  context: { message: null as CatalogueKey | null },
  on: {
    show: (context, event: { message: CatalogueKey }) => (context.message === event.message ? context : { message: event.message }),
    clear: (context) => (context.message === null ? context : { message: null }),
    /** Clears the banner only when it says this (the browser came back online: the network banner goes). */
    clearIf: (context, event: { message: CatalogueKey }) => (context.message === event.message ? { message: null } : context),
  },
});
