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
});
