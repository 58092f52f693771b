import Bowser from 'bowser';

/** A browser's User-Agent as a person reads it (issue 21): browser and version, operating system, device type. */
export interface ReadableDevice {
  browser: string | null;
  os: string | null;
  platform: string | null;
}

export function readableDevice(userAgent: string | null | undefined): ReadableDevice {
  if (!userAgent) return { browser: null, os: null, platform: null };
  try {
    const r = Bowser.parse(userAgent);
    const major = r.browser.version?.split('.')[0];
    const browser = r.browser.name ? `${r.browser.name}${major ? ` ${major}` : ''}` : null;
    const osVersion = r.os.versionName ?? r.os.version;
    const os = r.os.name ? `${r.os.name}${osVersion ? ` ${osVersion}` : ''}` : null;
    return { browser, os, platform: r.platform.type ?? null };
  } catch {
    return { browser: null, os: null, platform: null };
  }
}
