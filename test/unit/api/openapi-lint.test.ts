import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../functions/api/openapi';
import { localOpenApiDocument } from '../../../local/services/http/local-document';

/**
 * The served OpenAPI document passes Redocly's recommended ruleset with 0 errors
 * (docs/contract.md §30), deployed and as `npm start` serves it. `@redocly/cli lint` runs
 * offline and quiet: no telemetry, no update check, in a directory of its own (no config file
 * of the repository's), its output shown only when this test fails.
 */
const cli = join(
  dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin/cli.js',
);
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

async function lint(name: string, document: unknown): Promise<LintReport> {
  writeFileSync(join(dir, name), JSON.stringify(document));
  const run = promisify(execFile);
  const args = [cli, 'lint', name, '--extends', 'recommended', '--format', 'json'];
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    NO_COLOR: '1',
  };
  try {
    const { stdout } = await run(process.execPath, args, { cwd: dir, env, timeout: 60_000 });
    return JSON.parse(stdout) as LintReport;
  } catch (error) {
    // A non-zero exit (errors found) still prints the JSON report on stdout.
    const stdout = (error as { stdout?: string }).stdout ?? '';
    if (stdout.trim().startsWith('{')) return JSON.parse(stdout) as LintReport;
    throw error;
  }
}

const retention = { idempotencyRetentionSeconds: 86_400, inboxRetentionSeconds: 604_800 };
const errorsOf = (report: LintReport) => report.problems.filter((p) => p.severity === 'error');

describe('Redocly recommended ruleset on the served OpenAPI document', () => {
  it('reports 0 errors on the deployed document, which names a relative server', async () => {
    const document = buildOpenApiDocument(retention);
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const report = await lint('deployed.json', document);
    expect(errorsOf(report)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 90_000);

  it("reports 0 errors on the local stack's document, which names the stack's base URL", async () => {
    const deployed = buildOpenApiDocument(retention) as unknown as Record<string, unknown>;
    const document = localOpenApiDocument(deployed, 'http://127.0.0.1:3000');
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:3000', description: 'npm start' }]);
    const report = await lint('local.json', document);
    expect(errorsOf(report)).toEqual([]);
  }, 90_000);
});
