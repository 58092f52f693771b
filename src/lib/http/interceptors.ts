import { isCancel, type AxiosError, type AxiosInstance, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { parseBlob } from '#src/lib/normalize-error.ts';
import type { HttpAuth } from './auth-bridge.ts';
import { failedCallSubject, isNoRetryCall, isRefreshCall, rejectionValue } from './failed-call.ts';
import { requestHeaders, workspaceHeaders, type WorkspaceIds } from './headers.ts';
import type { RefreshQueue } from './refresh-queue.ts';

export interface InterceptorDeps {
  auth(): HttpAuth | null;
  /** The stored locale (localization slice), or null. */
  language(): string | null;
  now(): Date;
  refreshQueue: RefreshQueue;
  /** Shows a failure in the error toast (through normalizeError). */
  showError(subject: unknown): void;
  /** show: the 401 banner; unreachable: the offline banner (no answer at all); clear: either. */
  banner: { show(): void; clear(): void; unreachable(): void };
  /** The selected project, exam and paper (the selection slices); none: no context headers. */
  workspace?(): WorkspaceIds;
}

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;
const isStream = (value: unknown): value is ReadableStream<Uint8Array> => typeof ReadableStream !== 'undefined' && value instanceof ReadableStream;

async function streamToBlob(stream: ReadableStream<Uint8Array>, type: string): Promise<Blob> {
  const parts: BlobPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value as BlobPart);
  }
  return new Blob(parts, { type });
}

/** A streamed error body (downloads) becomes a Blob: the rejected value callers can read again. */
async function settledBody(response: AxiosResponse): Promise<unknown> {
  if (!isStream(response.data)) return response.data;
  const type = String(response.headers?.['content-type'] ?? '');
  return streamToBlob(response.data, type);
}

/**
 * The request headers of spec §7 and the failed-call handling of spec §8 on one axios
 * instance (docs/decisions/0011). The refresh queue is shared by every service's instance:
 * one session, one refresh.
 */
export function installInterceptors(instance: AxiosInstance, deps: InterceptorDeps) {
  instance.interceptors.request.use((config: InternalAxiosRequestConfig) => {
    const anonymous = config.anonymous === true;
    const token = anonymous ? null : (config.retryToken ?? config.accessToken ?? deps.auth()?.getAccessToken() ?? null);
    const multipart = config.multipart === true || (typeof FormData !== 'undefined' && config.data instanceof FormData);
    const headers = requestHeaders({ token, anonymous, multipart, language: deps.language(), now: deps.now() });
    for (const [name, value] of Object.entries(headers)) {
      // The caller's own content type wins, and an e-mailed link's tenant on an unauthenticated
      // call (docs/decisions/0031); identity and locale headers are the layer's.
      if ((name === 'Content-Type' || (name === 'tenant' && anonymous)) && config.headers.has(name)) continue;
      config.headers.set(name, value);
    }
    if (!token) config.headers.delete('Authorization');
    // Workspace context headers (spec §3) go with signed-in calls only; a header the caller set
    // itself wins (a call about a project just created, before it is selected).
    const context = token && deps.workspace ? workspaceHeaders(deps.workspace(), config.workspace) : {};
    for (const [name, value] of Object.entries(context)) if (!config.headers.has(name)) config.headers.set(name, value);
    if (config.workspace === 'global') {
      config.headers.delete('ProjectId');
      config.headers.delete('ExamId');
    }
    config.sentToken = token;
    return config;
  });

  instance.interceptors.response.use(
    (response) => {
      if (!isNoRetryCall(response.config.url)) deps.banner.clear();
      return response;
    },
    async (error: AxiosError) => {
      // Spec §8: a cancelled request is ignored silently (still rejected, so the caller stops).
      if (isCancel(error)) throw error;
      const config = error.config as InternalAxiosRequestConfig | undefined;
      const regular = !isNoRetryCall(config?.url);
      const showErrors = config?.showErrors !== false;
      const response = error.response;

      // No response: a network failure. No retry; the network message of spec §8, once, in the
      // offline banner (issue 23), which stays until a call gets an answer — not a toast per call.
      if (!response || !config) {
        deps.banner.unreachable();
        throw error;
      }

      const body = await settledBody(response);
      const rejected = rejectionValue(body, error);
      const status = response.status;

      if (status === 401) {
        const auth = deps.auth();
        if (isRefreshCall(config.url)) {
          // Spec §4: a 401 on the refresh call logs the user out.
          auth?.onSessionExpired();
          throw rejected;
        }
        // An unauthenticated call sends no token: a new one would not change its answer.
        if (regular && !config.retried && !config.anonymous && auth) {
          let token: string;
          try {
            token = await deps.refreshQueue.tokenForRetry(config.sentToken ?? null, auth.getAccessToken());
          } catch {
            token = '';
          }
          if (token) {
            config.retried = true;
            config.retryToken = token;
            return instance.request(config);
          }
        }
        // A 401 that stands: the banner when it came with a body (spec §8), nothing shown.
        if (regular) {
          if (body === undefined || body === null || body === '') deps.banner.clear();
          else deps.banner.show();
        }
        throw rejected;
      }

      if (regular) deps.banner.clear();
      if (showErrors) {
        const subject = failedCallSubject(status, isBlob(body) ? await parseBlob(body) : body);
        if (subject !== null) deps.showError(subject);
      }
      throw rejected;
    },
  );
  return instance;
}
