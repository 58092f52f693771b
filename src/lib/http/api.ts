import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import type { ServiceKey } from '#src/lib/config.ts';

/**
 * The HTTP layer's entry point for features and the auth layer. Nothing here loads axios: the
 * clients (src/lib/http/runtime.ts) are imported on the first call, so axios is never part of
 * the first render (docs/decisions/0016).
 *
 *   const users = serviceApi('userService');
 *   const user = await users.get<User>(`/users/${id}`);
 *   await users.post('/tokens', { email, password }, { anonymous: true, showErrors: false });
 *
 * A call resolves with the response body. A failed call rejects with the body, or the error
 * itself when there is none (spec §8); a cancelled one rejects with axios's CanceledError and
 * shows nothing.
 */
let runtime: Promise<typeof import('./runtime.ts')> | undefined;
const loadRuntime = () => (runtime ??= import('./runtime.ts'));

/** Fetches the clients' code ahead of the first call (a page about to fetch its data, issue 22). */
export const preloadHttpRuntime = () =>
  loadRuntime().then(
    () => undefined,
    () => undefined,
  );

/** The axios instance of a service, for what the helpers below do not cover (headers of the response …). */
export async function getHttpClient(service: ServiceKey = 'userService'): Promise<AxiosInstance> {
  return (await loadRuntime()).httpClients[service];
}

export async function request<T>(service: ServiceKey, config: AxiosRequestConfig): Promise<T> {
  const client = await getHttpClient(service);
  const response = await client.request<T>(config);
  return response.data;
}

export type CallOptions = Omit<AxiosRequestConfig, 'url' | 'method' | 'data' | 'baseURL'>;

/** Typed verbs bound to one service's base URL. */
export function serviceApi(service: ServiceKey) {
  return {
    get: <T>(url: string, options?: CallOptions) => request<T>(service, { ...options, url, method: 'GET' }),
    delete: <T>(url: string, options?: CallOptions) => request<T>(service, { ...options, url, method: 'DELETE' }),
    post: <T, D = unknown>(url: string, data?: D, options?: CallOptions) => request<T>(service, { ...options, url, method: 'POST', data }),
    put: <T, D = unknown>(url: string, data?: D, options?: CallOptions) => request<T>(service, { ...options, url, method: 'PUT', data }),
    patch: <T, D = unknown>(url: string, data?: D, options?: CallOptions) => request<T>(service, { ...options, url, method: 'PATCH', data }),
  };
}

export { configureHttpAuth, type HttpAuth } from './auth-bridge.ts';
export type { HttpCallOptions } from './types.ts';
