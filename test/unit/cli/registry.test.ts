import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../cli/registry';

/** A static import or re-export of a command module: `import … from '…/commands/…'`. */
const STATIC_COMMAND_IMPORT = /^\s*(?:import|export)\b[^'"]*['"][^'"]*\/commands\//m;

const source = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('the command registry', () => {
  it('lists each command once, and each entry loads the command of its name', async () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.help).toContain(`npm run cli -- ${entry.name}`);
      expect(entry.summary).not.toContain('\n');
    }
  });

  // `npm run cli -- <command>` loads one command module, not all 18 and the SDK clients they use.
  it('imports no command module statically: each is loaded when it runs', () => {
    for (const path of ['cli/registry.ts', 'cli/run.ts', 'cli/main.ts', 'local/banner.ts']) {
      expect(source(path), path).not.toMatch(STATIC_COMMAND_IMPORT);
    }
    const registry = source('cli/registry.ts');
    const dynamic = [...registry.matchAll(/\bimport\('\.\/commands\/[^']+'\)/g)];
    expect(dynamic).toHaveLength(COMMANDS.length);
  });
});
