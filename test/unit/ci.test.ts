import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `.ci/run` is what CI runs on a fresh Debian machine: it must install what the tests need and
 * run the same test command the README gives a newcomer.
 */
const root = join(import.meta.dirname, '..', '..');
const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const commands = ci.split('\n').map((line) => line.trim());

describe('.ci/run', () => {
  it('is valid bash', () => {
    expect(() => execFileSync('bash', ['-n', join(root, '.ci', 'run')])).not.toThrow();
  });

  it("runs the README's test command", () => {
    const [, command] = /^(npm test)\s+# runs everything/m.exec(readme) ?? [];

    expect(command).toBe('npm test');
    expect(commands).toContain(command);
  });

  it('installs Java and Chromium with apt-get when they are missing, and hands Chromium to the browser test', () => {
    expect(ci).toMatch(
      /java_major\)" -lt 17[\s\S]*apt-get install -y[^\n]*openjdk-17-jre-headless/,
    );
    expect(ci).toMatch(
      /if ! command -v chromium[\s\S]*apt-get update[\s\S]*apt-get install -y[^\n]* chromium\n/,
    );
    expect(commands).toContain('export CHROMIUM_PATH');
  });

  it('says which Node it ran on, and refuses one below what package.json supports', () => {
    expect(ci).toMatch(/step "All checks passed on Node \$\(node --version\)"/);
    const [, major, minor] =
      /\[ "\$node_major" -lt (\d+) \][\s\S]*?\[ "\$node_minor" -lt (\d+) \]/.exec(ci) ?? [];
    expect(`${major}.${minor}`).toBe(MINIMUM_NODE);
  });
});

/** What is supported and tested (README "Prerequisites"), and what package.json pins. */
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const MINIMUM_NODE = '20.19';

describe('supported Node versions', () => {
  it('pins engines to the tested lines: 22 (recommended, what Lambda runs) and 20.19+', () => {
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.12.0');
    expect(readFileSync(join(root, '.nvmrc'), 'utf8').trim()).toBe('22');
  });

  it('are stated in the README as package.json pins them', () => {
    expect(readme).toMatch(/Node\.js 22 \(recommended[^)]*\) or 20\.19\+/);
    expect(readme).toContain(`\`engines\`: \`${pkg.engines.node}\``);
  });
});
