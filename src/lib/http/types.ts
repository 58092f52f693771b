/**
 * Per-call options of the HTTP layer, on top of axios's request config (the augmentation
 * below applies to the whole program). Type-only: nothing here runs.
 */
export interface HttpCallOptions {
  /** An unauthenticated call: sends `tenant: root` and no token (spec §7). */
  anonymous?: boolean;
  /** An upload: multipart content type. A FormData body implies it. */
  multipart?: boolean;
  /** Sends this bearer token instead of the session's (GET /personal/permissions right after sign-in). */
  accessToken?: string;
  /**
   * false: the layer does not show the failure in an error toast; the caller shows it (a form
   * mapping field errors, the sign-in screen). The banner and the 401 handling still apply.
   */
  showErrors?: boolean;
  /**
   * The workspace the call belongs to (spec §3): 'project' sends ProjectId, 'paper' ExamId
   * (`examId` or `examId&paperId`), 'global' neither. Unflagged: whatever is selected.
   */
  workspace?: import('./headers.ts').WorkspaceScope;
}

declare module 'axios' {
  interface AxiosRequestConfig extends HttpCallOptions {}
  interface InternalAxiosRequestConfig {
    /** The token this attempt went out with. */
    sentToken?: string | null;
    /** This attempt is the retry after a refresh: a 401 now is final. */
    retried?: boolean;
    /** The refreshed token the retry uses. */
    retryToken?: string;
  }
}
