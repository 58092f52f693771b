import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

export interface FakeReply {
  status: number;
  data?: unknown;
  headers?: Record<string, string>;
}

/** What the fake server saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  data: unknown;
  timeout: number | undefined;
}

export type FakeHandler = (request: SeenRequest, config: InternalAxiosRequestConfig) => FakeReply | 'network' | Promise<FakeReply | 'network'>;

/**
 * An axios adapter answering from a handler, settling like the real adapters do: a status
 * outside 2xx rejects with an AxiosError carrying the response; 'network' rejects without one.
 */
export function fakeServer(handler: FakeHandler) {
  const seen: SeenRequest[] = [];
  const adapter: AxiosAdapter = async (config) => {
    const headers = Object.fromEntries(Object.entries(AxiosHeaders.from(config.headers).toJSON()).map(([k, v]) => [k, String(v)]));
    const request: SeenRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      headers,
      data: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
      timeout: config.timeout,
    };
    seen.push(request);
    if (config.signal?.aborted) throw new AxiosError('canceled', AxiosError.ERR_CANCELED, config);
    const reply = await handler(request, config);
    if (reply === 'network') throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
    const response: AxiosResponse = {
      data: reply.data,
      status: reply.status,
      statusText: String(reply.status),
      headers: AxiosHeaders.from(reply.headers ?? {}),
      config,
      request: {},
    };
    if (reply.status >= 200 && reply.status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${reply.status}`,
      reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      {},
      response,
    );
  };
  return { adapter, seen };
}

/** Header names as the fake server received them, lower-cased for comparison. */
export function lowerKeys(headers: Record<string, string>) {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
