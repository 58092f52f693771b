import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Everything the server reads from its environment, parsed once at start-up. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  /** When unset, a secret is generated once and kept in the database (see docs/decisions/0003). */
  jwtSecret: string | undefined;
  persistSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string;
  adminPassword: string | undefined;
  logLevel: string;
  production: boolean;
  /** Directory holding the built SPA (vite build output). */
  clientDir: string;
  version: string;
  ui: UiDefaults;
  /** Per-service base URLs for the client; every module lives in this server, so all default to /api. */
  services: Record<ServiceName, string>;
  ldap: LdapConfig | undefined;
  /** DEV_MAILBOX=1: keep the dev mailbox on although HOST is not a loopback address (it still answers loopback clients only). */
  devMailboxAnyHost: boolean;
  /** Access-token lifetime in seconds (SECURITY.md: 15 minutes). Tests shorten it. */
  accessTokenSeconds: number;
}

export interface LdapConfig {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
}

export interface UiDefaults {
  fontFamily: string;
  i18n: string;
  mode: 'light' | 'dark';
  presetColor: string;
  themeDirection: 'ltr' | 'rtl';
  miniDrawer: boolean;
  container: boolean;
  defaultPath: string;
  productKey: string;
}

export const serviceNames = [
  'user',
  'project',
  'paper',
  'exam',
  'registration',
  'item',
  'category',
  'logistics',
  'telemetry',
  'result',
  'center',
  'notification',
] as const;
export type ServiceName = (typeof serviceNames)[number];

export const presetColors = ['default', 'theme1', 'theme2', 'theme3', 'theme4', 'theme5', 'theme6', 'theme7', 'theme8'] as const;
export const supportedLocales = ['en-IN', 'en-US', 'fr', 'es', 'hi', 'gu'] as const;

const rootDir = path.resolve(import.meta.dirname, '..');

export function readPackageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

type Env = Record<string, string | undefined>;

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer (got "${value}")`);
  return n;
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const port = integer(env.PORT, 8080, 'PORT');
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/+$/, '');
  const services = Object.fromEntries(serviceNames.map((name) => [name, env[`${name.toUpperCase()}_SERVICE_URL`] || '/api'])) as Record<ServiceName, string>;
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl,
    jwtSecret: env.JWT_SECRET || undefined,
    persistSecret: env.PERSIST_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Exam Portal <no-reply@exam-portal.local>',
    adminEmail: (env.ADMIN_EMAIL || 'admin@exam-portal.local').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    production: env.NODE_ENV === 'production',
    clientDir: path.resolve(env.CLIENT_DIR || path.join(rootDir, 'dist')),
    version: readPackageVersion(),
    ui: {
      fontFamily: env.UI_FONT_FAMILY || `'Public Sans', sans-serif`,
      i18n: oneOf(env.UI_I18N, supportedLocales, 'en-IN', 'UI_I18N'),
      mode: oneOf(env.UI_MODE, ['light', 'dark'] as const, 'light', 'UI_MODE'),
      presetColor: oneOf(env.UI_PRESET_COLOR, presetColors, 'default', 'UI_PRESET_COLOR'),
      themeDirection: oneOf(env.UI_DIRECTION, ['ltr', 'rtl'] as const, 'ltr', 'UI_DIRECTION'),
      miniDrawer: bool(env.UI_MINI_DRAWER, false),
      container: bool(env.UI_CONTAINER, false),
      defaultPath: env.UI_DEFAULT_PATH || '/',
      productKey: env.PRODUCT_KEY || 'exam-portal',
    },
    services,
    ldap: env.LDAP_URL
      ? {
          url: env.LDAP_URL,
          bindDn: env.LDAP_BIND_DN || '',
          bindPassword: env.LDAP_BIND_PASSWORD || '',
          baseDn: env.LDAP_BASE_DN || '',
        }
      : undefined,
    devMailboxAnyHost: env.DEV_MAILBOX === '1',
    accessTokenSeconds: integer(env.ACCESS_TOKEN_SECONDS, 15 * 60, 'ACCESS_TOKEN_SECONDS'),
  };
}
