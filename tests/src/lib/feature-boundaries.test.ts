import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own ESLint configuration, run on made-up sources placed in real folders.
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'features/public-entry').map((m) => m.message);
}

describe('features reach each other only through a public entry (features/public-entry)', () => {
  it('should refuse a deep import of another feature, by alias, relative path, re-export or dynamic import', async () => {
    const code = [
      "import { usersApi } from '#src/features/users/api/users-api.ts';",
      "import { PermissionGate } from '../users/components/permission-gate.tsx';",
      "export { ChatPanel } from '../chat/chat-panel.tsx';",
      "export const load = () => import('#src/features/chat/use-unread-counts.ts');",
      'export const x = [usersApi, PermissionGate];',
    ].join('\n');
    const found = await problems('src/features/tickets/example.tsx', code);
    expect(found).toHaveLength(4);
    expect(found[0]).toBe("Import the 'users' feature through its public entry '#src/features/users/index.ts', not '#src/features/users/api/users-api.ts'.");
  });

  it('should allow the public entry, the feature’s own files, and shared code', async () => {
    const code = [
      "import { usersApi } from '#src/features/users/index.ts';",
      "import { ChatPanel } from '../../chat/index.ts';",
      "import { ticketsApi } from '../api/tickets-api.ts';",
      "import { Button } from '#src/components/ui/button.tsx';",
      'export const x = [usersApi, ChatPanel, ticketsApi, Button];',
    ].join('\n');
    expect(await problems('src/features/tickets/components/example.tsx', code)).toEqual([]);
  });

  it('should leave the application shell free to load any feature’s pages (the route table)', async () => {
    expect(await problems('src/app/routing/example.tsx', "export const page = () => import('#src/features/users/users-page.tsx');")).toEqual([]);
  });
});
