/**
 * Real esbuild bundling (no stub code): a broken bundle, a missing entry or a bad bundler
 * setting fails here. Each bundle is also imported in a child Node process, which catches
 * ESM problems such as "Dynamic require of ... is not supported" at cold start.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLedgerConfig } from '../../lib/config';
import { ESM_REQUIRE_BANNER, LedgerFunction } from '../../lib/constructs/ledger-function';
import { createLedgerStacks, type LedgerStacks } from '../../lib/ledger-app';
import { HTTP_HANDLER_ENTRY } from '../../lib/stateless-stack';
import { SYNTH_HOOK_TIMEOUT_MS } from './synth';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE_ENTRY = resolve(import.meta.dirname, 'fixtures/esm-handler.ts');

let outdir: string;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'ledger-infra-bundle-'));
  // Lets the bundles resolve their externals (@aws-sdk/*) when imported from outdir.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(outdir, 'node_modules'), 'dir');
}, SYNTH_HOOK_TIMEOUT_MS);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** Directory of the staged Lambda asset, found through the template's S3 key. */
function bundleDir(template: Template): string {
  const functions = Object.values(template.findResources('AWS::Lambda::Function')) as {
    Properties: { Code: { S3Key: string } };
  }[];
  expect(functions).toHaveLength(1);
  const s3Key = functions[0]?.Properties.Code.S3Key ?? '';
  expect(s3Key).toMatch(/^[0-9a-f]{64}\.zip$/);
  return join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`);
}

/** Imports the bundle in a fresh Node process (like a cold start) and runs `script` on it. */
function runInNode(bundle: string, script: string): string {
  return execFileSync(
    process.execPath,
    [
      '--enable-source-maps',
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)});\n${script}`,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, TABLE_NAME: 'ledger-test', AWS_REGION: 'eu-west-1' },
      timeout: 20_000,
    },
  );
}

describe('LedgerFunction bundling (fixture)', () => {
  let dir: string;
  let template: Template;

  beforeAll(() => {
    const app = new App({ outdir, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'BundlingFixture');
    new LedgerFunction(stack, 'Fixture', { entry: FIXTURE_ENTRY });
    template = Template.fromStack(stack);
    dir = bundleDir(template);
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('emits a minified ESM bundle with source map, prefixed by the createRequire banner', () => {
    template.hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.handler' });
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    expect(code).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
    expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
    // Minified: the fixture's long local names do not survive.
    expect(code).not.toContain('tableName: config.tableName');
  });

  it('runs in Node as ESM, including a CommonJS dependency that requires a built-in', () => {
    const out = runInNode(
      join(dir, 'index.mjs'),
      'const r = await m.handler(); process.stdout.write(r.body);',
    );
    expect(JSON.parse(out)).toEqual({
      tableName: 'ledger-test',
      exportFee: 100,
      eol: JSON.stringify('\n'),
    });
  });
});

describe('full app as bin/app.ts synthesizes it (real bundling, built-in validation)', () => {
  let stacks: LedgerStacks;

  beforeAll(() => {
    expect(
      existsSync(HTTP_HANDLER_ENTRY),
      `${HTTP_HANDLER_ENTRY} must exist (the HTTP Lambda entry)`,
    ).toBe(true);
    const app = new App({
      outdir,
      // Fail on CloudFormation validation warnings too, not only on errors.
      context: { '@aws-cdk/core:strictCfnValidateErrors': true },
    });
    stacks = createLedgerStacks(
      app,
      resolveLedgerConfig({ jwtIssuer: 'https://issuer.example.com/', jwtAudience: 'api' }),
    );
    // Throws if CDK's built-in CloudFormation validation reports anything.
    app.synth();
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('bundles functions/http/handler.ts into an importable ESM module exporting `handler`', () => {
    const bundle = join(bundleDir(Template.fromStack(stacks.stateless)), 'index.mjs');
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    expect(runInNode(bundle, 'process.stdout.write(typeof m.handler);')).toBe('function');
  });

  it('has no warning or error annotations on either stack', () => {
    for (const stack of [stacks.stateful, stacks.stateless]) {
      const annotations = Annotations.fromStack(stack);
      annotations.hasNoWarning('*', Match.anyValue());
      annotations.hasNoError('*', Match.anyValue());
    }
  });
});
