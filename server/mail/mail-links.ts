/**
 * The client routes that links in e-mails open (docs/decisions/0031). The server only builds
 * them; the client's router owns the screens. Every link starts with PUBLIC_URL, never with
 * the request's Host header or a URL the caller sent.
 */
export const clientRoutes = {
  signIn: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  firstLogin: '/first-login',
  confirmEmail: '/confirm-email',
  /** A candidate's registrations and admit cards (issue 18). */
  myRegistrations: '/registrations/mine',
  /** A candidate's published results (issue 20). */
  myResults: '/results',
} as const;

export type ClientRoute = (typeof clientRoutes)[keyof typeof clientRoutes];

export function clientLink(publicUrl: string, route: ClientRoute, params: Record<string, string | undefined>): string {
  // Relative to PUBLIC_URL so a deployment under a path prefix (https://host/portal) keeps it.
  const url = new URL(route.slice(1), `${publicUrl}/`);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') url.searchParams.set(name, value);
  }
  return url.toString();
}

/**
 * The `redirectUrl` a caller sends is reduced to a path inside this application, or dropped:
 * a relative path, or an absolute URL on PUBLIC_URL's origin. Anything else (another host,
 * `//host`, `javascript:`) would turn our e-mails into phishing links, so it is ignored.
 */
export function sameOriginPath(publicUrl: string, redirectUrl: string | undefined): string | undefined {
  if (!redirectUrl) return undefined;
  const value = redirectUrl.trim();
  if (!value || value.includes('\\')) return undefined;
  const base = new URL(`${publicUrl}/`);
  let parsed: URL;
  try {
    parsed = new URL(value, base);
  } catch {
    return undefined;
  }
  if (parsed.origin !== base.origin) return undefined;
  if (!value.startsWith('/') && !/^https?:\/\//i.test(value)) return undefined;
  if (value.startsWith('//')) return undefined;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}
