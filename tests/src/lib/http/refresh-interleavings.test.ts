import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '#src/lib/config.ts';
import type { HttpAuth } from '#src/lib/http/auth-bridge.ts';
import { createHttpClients } from '#src/lib/http/clients.ts';
import { fakeServer, lowerKeys, type FakeReply } from './support/fake-server.ts';

/**
 * Spec §4 "Token refresh": on a 401 the client refreshes once and retries; concurrent requests
 * wait and reuse the new token. fast-check's scheduler decides, run after run, in which order
 * requests start, replies arrive and the refresh completes; every order must end with exactly
 * one refresh call and every request answered 200 with the new token.
 */
describe('token refresh under concurrency', () => {
  it('should make exactly one refresh call and let every request succeed, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.record({ path: fc.constantFrom('/users/7', '/roles/search', '/v1/supportticket/searchbyuser'), bodyOn401: fc.boolean() }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (s, requests) => {
          // The server: token-1 has expired; a refresh issues token-2.
          let valid: string | null = null;
          let refreshCalls = 0;
          const { adapter } = fakeServer((request) => {
            let reply: FakeReply;
            if (request.url === '/tokens/refresh') {
              refreshCalls += 1;
              valid = `token-${refreshCalls + 1}`;
              reply = { status: 200, data: { token: valid, refreshToken: `refresh-${refreshCalls + 1}` } };
            } else {
              const auth = lowerKeys(request.headers).authorization;
              const index = Number(new URLSearchParams(request.url.split('?')[1]).get('n'));
              reply =
                valid && auth === `Bearer ${valid}`
                  ? { status: 200, data: { auth, n: index } }
                  : { status: 401, data: requests[index].bodyOn401 ? { messages: ['Token expired.'], statusCode: 401 } : '' };
            }
            // Every reply reaches the client when the scheduler says so.
            return s.schedule(Promise.resolve(reply), `${request.url} ${lowerKeys(request.headers).authorization ?? ''} → ${reply.status}`);
          });

          // The session, refreshing through the layer as the auth-session actor will.
          let token: string | null = 'token-1';
          let expired = false;
          const clients = createHttpClients(defaultConfig, {
            adapter,
            auth: () => session,
            language: () => null,
            now: () => new Date(0),
            showError: () => {},
            banner: { show: () => {}, clear: () => {}, unreachable: () => {} },
          });
          const session: HttpAuth = {
            getAccessToken: () => token,
            async refreshSession() {
              const { data } = await clients.userService.post<{ token: string }>('/tokens/refresh', { token, refreshToken: 'refresh-1' }, { anonymous: true });
              token = data.token;
              return data.token;
            },
            onSessionExpired: () => {
              expired = true;
            },
          };

          // Each request starts when the scheduler says so, too.
          const calls = requests.map((request, n) =>
            s.schedule(Promise.resolve(), `start #${n} ${request.path}`).then(() => clients.userService.get(`${request.path}?n=${n}`)),
          );
          const results = await s.waitFor(Promise.allSettled(calls));

          expect(refreshCalls).toBe(1);
          expect(expired).toBe(false);
          expect(results.map((r) => (r.status === 'fulfilled' ? r.value.data : r.reason))).toEqual(requests.map((_, n) => ({ auth: 'Bearer token-2', n })));
        },
      ),
      { numRuns: 300 },
    );
  });
});
