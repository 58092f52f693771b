import { vi } from 'vitest';

/**
 * The candidate's delivery API as the screen tests replace it. A test file registers it with
 * `vi.mock('#src/features/delivery/api/delivery-api.ts', async () => ({ deliveryApi: (await import('./delivery-api-mock.ts')).deliveryApiMock }))`
 * and imports it to script the answers: the module is one instance for both.
 */
export const deliveryApiMock = {
  sittings: vi.fn(),
  open: vi.fn(),
  get: vi.fn(),
  start: vi.fn(),
  save: vi.fn(),
  submit: vi.fn(),
  receipt: vi.fn(),
  telemetry: vi.fn(),
};
