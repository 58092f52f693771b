import { readFileSync } from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CURRENT_VERSION } from '#machines/version-check.machine.ts';
import { ContentRendered } from '#src/app/content-rendered.tsx';
import { startVersionCheck } from '#src/app/start-version-check.ts';
import { APP_VERSION } from '#src/lib/config.ts';

describe('the running version', () => {
  it('should be 1.2.253 in the machine, the client config and package.json alike', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string };
    expect([CURRENT_VERSION, APP_VERSION, pkg.version]).toEqual(['1.2.253', '1.2.253', '1.2.253']);
  });
});

describe('startVersionCheck', () => {
  it('should wait for the first content, then for the browser to be idle (2 s at most), before loading the check', async () => {
    const idle = vi.fn();
    vi.stubGlobal('requestIdleCallback', idle);
    try {
      startVersionCheck();
      await Promise.resolve();
      expect(idle).not.toHaveBeenCalled();
      render(
        <ContentRendered>
          <h1>Dashboard</h1>
        </ContentRendered>,
      );
      await vi.waitFor(() => expect(idle).toHaveBeenCalledWith(expect.any(Function), { timeout: 2000 }));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
