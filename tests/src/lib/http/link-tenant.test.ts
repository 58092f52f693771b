import { describe, expect, it } from 'vitest';
import { defaultConfig } from '#src/lib/config.ts';
import { createHttpClients } from '#src/lib/http/clients.ts';
import { fakeServer, lowerKeys } from './support/fake-server.ts';

/** docs/decisions/0031: an e-mailed link's tenant goes to the `tenant` header of the unauthenticated call it makes. */
describe('the tenant header of unauthenticated calls', () => {
  function clients() {
    const server = fakeServer(() => ({ status: 200, data: { message: 'ok' } }));
    const http = createHttpClients(defaultConfig, {
      adapter: server.adapter,
      auth: () => null,
      language: () => null,
      now: () => new Date(0),
      showError: () => {},
      banner: { show: () => {}, clear: () => {}, unreachable: () => {} },
    });
    return { http, seen: server.seen };
  }

  it('should send root by default and the tenant the caller names', async () => {
    const { http, seen } = clients();
    await http.userService.post('/users/forgot-password', { email: 'a@example.test' }, { anonymous: true });
    await http.userService.post('/users/forgot-password', { email: 'a@example.test' }, { anonymous: true, headers: { tenant: 'acme' } });
    expect(seen.map((r) => lowerKeys(r.headers).tenant)).toEqual(['root', 'acme']);
  });
});
