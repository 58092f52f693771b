import { createStore } from '@xstate/store';
import type { CatalogueKey } from '#src/lib/error-catalogue.ts';

/**
 * The banner of spec §8: after a call that ends in a 401 with a response body it says "We're
 * currently experiencing technical difficulties. Please try again later."; any other outcome of
 * a call clears it (docs/decisions/0011). Holds a catalogue key; the banner view translates it.
 */
export const bannerStore = createStore({
  context: { message: null as CatalogueKey | null },
  on: {
    show: (context, event: { message: CatalogueKey }) => (context.message === event.message ? context : { message: event.message }),
    clear: (context) => (context.message === null ? context : { message: null }),
  },
});
