import axios, { type AxiosInstance } from 'axios';
import { serviceKeys, type ServiceKey } from '#src/lib/config.ts';
import type { HttpAuth } from './auth-bridge.ts';
import { installInterceptors, type InterceptorDeps } from './interceptors.ts';
import { createRefreshQueue } from './refresh-queue.ts';

export type HttpClients = Record<ServiceKey, AxiosInstance>;

export interface HttpClientOptions extends Omit<InterceptorDeps, 'refreshQueue'> {
  /** Replaces the network (tests: a fake server). */
  adapter?: AxiosInstance['defaults']['adapter'];
}

/**
 * One axios instance per service of the runtime configuration, all sharing one refresh queue
 * (one session, one refresh). Spec §9: no time-out.
 */
export function createHttpClients(baseUrls: Record<ServiceKey, string>, options: HttpClientOptions): HttpClients {
  const refreshQueue = createRefreshQueue(() => {
    const auth: HttpAuth | null = options.auth();
    return auth ? auth.refreshSession() : Promise.reject(new Error('No session to refresh'));
  });
  const deps: InterceptorDeps = { ...options, refreshQueue };
  return Object.fromEntries(
    serviceKeys.map((key) => {
      const instance = axios.create({ baseURL: baseUrls[key], timeout: 0, ...(options.adapter ? { adapter: options.adapter } : {}) });
      return [key, installInterceptors(instance, deps)];
    }),
  ) as HttpClients;
}
