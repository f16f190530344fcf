/**
 * Real esbuild bundling (no stub code): a broken bundle, a missing entry or a bad bundler
 * setting fails here. Each bundle is also imported in a child Node process, which catches
 * ESM problems such as "Dynamic require of ... is not supported" at cold start.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_FILE_NAME } from '../../../functions/api/document/published';
import { httpEvent } from '../../../kit/http-event';
import { withQuietStderr } from '../../../kit/quiet-stderr';
import { addComplianceChecks } from '../../../lib/compliance';
import { resolveLedgerConfig } from '../../../lib/config';
import {
  BUNDLE_BUDGET_BYTES,
  ESM_REQUIRE_BANNER,
  handlerEntry,
  LedgerFunction,
  NEVER_LOADED_ON_LAMBDA,
} from '../../../lib/constructs/shared/ledger-function';
import { createLedgerStacks, type LedgerStacks } from '../../../lib/ledger-app';
import { logicalIdOf, SYNTH_HOOK_TIMEOUT_MS } from '../synth';
import {
  DEPLOY_TIME_VALUES,
  deployedEnv,
  FIXTURE_ENV,
  importWithout,
  runInNode,
  bundleDir as stagedBundleDir,
} from './bundles';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
/**
 * The full app's one build: nine esbuild bundles, CloudFormation validation and cdk-nag, once
 * per file (every test below reads its output). ~40 s alone, past 60 s on a loaded 2-core
 * machine: the bound is generous, and a real hang still fails.
 */
const FULL_BUILD_TIMEOUT_MS = 300_000;
const FIXTURE_ENTRY = resolve(import.meta.dirname, '../fixtures/esm-handler.ts');

let outdir: string;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'ledger-infra-bundle-'));
  // Lets the bundles resolve their externals (@aws-sdk/*) when imported from outdir.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(outdir, 'node_modules'), 'dir');
}, SYNTH_HOOK_TIMEOUT_MS);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const bundleDir = (template: Template, logicalId?: string) =>
  stagedBundleDir(outdir, template, logicalId);

describe('LedgerFunction bundling (fixture)', () => {
  let dir: string;
  let template: Template;

  beforeAll(() => {
    const app = new App({ outdir, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'BundlingFixture');
    withQuietStderr(() => new LedgerFunction(stack, 'Fixture', { entry: FIXTURE_ENTRY }));
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
      FIXTURE_ENV,
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
  let stateless: Template;

  beforeAll(() => {
    const names = 'http events dispatcher journal-projector export-worker sweeper reconciler';
    for (const entry of `${names} credit-intake search-indexer`.split(' ').map(handlerEntry)) {
      expect(existsSync(entry), `${entry} must exist (a Lambda entry)`).toBe(true);
    }
    const app = new App({
      outdir,
      // Fail on CloudFormation validation warnings too, not only on errors.
      context: { '@aws-cdk/core:strictCfnValidateErrors': true },
    });
    stacks = withQuietStderr(() =>
      createLedgerStacks(
        app,
        resolveLedgerConfig({ jwtIssuer: 'https://issuer.example.com/', jwtAudience: 'api' }),
      ),
    );
    addComplianceChecks(app);
    // Throws if CDK's built-in CloudFormation validation or cdk-nag reports anything.
    app.synth();
    stateless = Template.fromStack(stacks.stateless);
  }, FULL_BUILD_TIMEOUT_MS);

  const bundleOf = (fn: LedgerFunction) => join(bundleDir(stateless, logicalIdOf(fn)), 'index.mjs');
  const envOf = (fn: LedgerFunction) => deployedEnv(stateless, logicalIdOf(fn));

  it('bundles functions/handlers/http/handler.ts into an ESM module that starts with the stack env and needs CALLBACK_SECRETS_ARN', () => {
    const fn = stacks.stateless.httpFunction;
    const bundle = bundleOf(fn);
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    const env = envOf(fn);
    // The stack, not this test, decides the variables; the ARN is a stand-in for the import.
    expect(env.CALLBACK_SECRETS_ARN).toBe(DEPLOY_TIME_VALUES.CALLBACK_SECRETS_ARN);
    expect(env.CALLBACK_APPLICATION_ID).toBe('export-worker');
    expect(env.CALLBACK_SECRETS).toBeUndefined();
    // The documents ship beside the bundle, not in it, and the bundle serves them from there.
    expect(existsSync(join(dirname(bundle), PUBLISHED_FILE_NAME))).toBe(true);
    expect(readFileSync(bundle, 'utf8')).not.toContain('Create an account');
    // Cold start with the deployed environment (secrets are fetched lazily, per callback), then
    // a fresh evaluation without the ARN must fail loudly instead of accepting no callbacks.
    const get = (path: string) => JSON.stringify(httpEvent('GET', path));
    const out = runInNode(
      bundle,
      `const type = typeof m.handler;
const doc = await m.handler(${get('/v1/openapi.json')});
const page = await m.handler(${get('/v1/problems/not_found')});
${importWithout(bundle, 'CALLBACK_SECRETS_ARN', 'withoutArn')}
const info = JSON.parse(doc.body).info;
process.stdout.write('\\n' + JSON.stringify({ type, withoutArn, info, page: page.body }));`,
      env,
    );
    const result = JSON.parse(out.split('\n').at(-1) ?? '') as Record<string, unknown>;
    expect(result.type).toBe('function');
    expect(result.withoutArn).toMatch(/CALLBACK_SECRETS_ARN/);
    expect(result.info).toMatchObject({
      title: 'idempotent-ledger',
      'x-idempotency-retention-seconds': Number(env.IDEMPOTENCY_RETENTION_SECONDS),
    });
    expect(result.page).toContain('<code>not_found</code>');
  });

  it('bundles functions/handlers/events/handler.ts into an ESM module that runs and needs DLQ_URL', () => {
    const fn = stacks.stateless.eventsConsumer.function;
    const bundle = bundleOf(fn);
    expect(bundle).not.toBe(bundleOf(stacks.stateless.httpFunction));
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    // An empty batch touches neither DynamoDB nor SQS: proves the module wires up at cold start.
    // Then a second, fresh evaluation without DLQ_URL, the variable the stack sets, must fail
    // the cold start loudly. One process for both keeps the test fast.
    const out = runInNode(
      bundle,
      `const batch = await m.handler({ Records: [] });
${importWithout(bundle, 'DLQ_URL', 'withoutDlqUrl')}
process.stdout.write(JSON.stringify({ batch, withoutDlqUrl }));`,
      envOf(fn),
    );
    const result = JSON.parse(out) as { batch: unknown; withoutDlqUrl: string };
    expect(result.batch).toEqual({ batchItemFailures: [] });
    expect(result.withoutDlqUrl).toMatch(/DLQ_URL/);
  });

  it('bundles functions/handlers/dispatcher/handler.ts into an ESM module that runs and needs EXPORT_JOBS_QUEUE_URL and CREDIT_INTAKE_QUEUE_URL', () => {
    const fn = stacks.stateless.outboxDispatcher.function;
    const bundle = bundleOf(fn);
    expect(new Set([bundle, bundleOf(stacks.stateless.httpFunction)]).size).toBe(2);
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    // Neither an empty batch nor a record that is not an outbox INSERT calls AWS.
    const modify = {
      eventName: 'MODIFY',
      dynamodb: { SequenceNumber: '1', NewImage: { kind: { S: 'outbox' } } },
    };
    const out = runInNode(
      bundle,
      `const empty = await m.handler({ Records: [] });
const skipped = await m.handler({ Records: [${JSON.stringify(modify)}] });
const intakeUrl = process.env.CREDIT_INTAKE_QUEUE_URL;
${importWithout(bundle, 'CREDIT_INTAKE_QUEUE_URL', 'withoutIntake')}
process.env.CREDIT_INTAKE_QUEUE_URL = intakeUrl;
${importWithout(bundle, 'EXPORT_JOBS_QUEUE_URL', 'withoutQueueUrl')}
process.stdout.write(JSON.stringify({ empty, skipped, withoutIntake, withoutQueueUrl }));`,
      envOf(fn),
    );
    const result = JSON.parse(out) as Record<string, unknown>;
    expect(result.empty).toEqual({ batchItemFailures: [] });
    expect(result.skipped).toEqual({ batchItemFailures: [] });
    expect(result.withoutIntake).toMatch(/CREDIT_INTAKE_QUEUE_URL/);
    expect(result.withoutQueueUrl).toMatch(/EXPORT_JOBS_QUEUE_URL/);
  });

  it('bundles functions/handlers/journal-projector/handler.ts into an ESM module that runs and needs JOURNAL_TOPIC_ARN', () => {
    const fn = stacks.stateless.journalProjector.function;
    const bundle = bundleOf(fn);
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    // Neither an empty batch nor a record that is not an account change calls AWS.
    const other = {
      eventName: 'MODIFY',
      dynamodb: { SequenceNumber: '1', NewImage: { kind: { S: 'outbox' } } },
    };
    const out = runInNode(
      bundle,
      `const empty = await m.handler({ Records: [] });
const skipped = await m.handler({ Records: [${JSON.stringify(other)}] });
${importWithout(bundle, 'JOURNAL_TOPIC_ARN', 'withoutTopic')}
process.stdout.write(JSON.stringify({ empty, skipped, withoutTopic }));`,
      envOf(fn),
    );
    const result = JSON.parse(out) as { empty: unknown; skipped: unknown; withoutTopic: string };
    expect(result.empty).toEqual({ batchItemFailures: [] });
    expect(result.skipped).toEqual({ batchItemFailures: [] });
    expect(result.withoutTopic).toMatch(/JOURNAL_TOPIC_ARN/);
  });

  it('bundles functions/handlers/export-worker/handler.ts into an ESM module that runs and needs API_URL', () => {
    const fn = stacks.stateless.exportWorker.function;
    const bundle = bundleOf(fn);
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    const env = envOf(fn);
    expect(env.EXPORT_BUCKET).toBe(DEPLOY_TIME_VALUES.EXPORT_BUCKET);
    // An empty batch touches neither DynamoDB, S3 nor the API.
    const out = runInNode(
      bundle,
      `const batch = await m.handler({ Records: [] }, { getRemainingTimeInMillis: () => 300000 });
${importWithout(bundle, 'API_URL', 'withoutApiUrl')}
process.stdout.write(JSON.stringify({ batch, withoutApiUrl }));`,
      env,
    );
    const result = JSON.parse(out) as { batch: unknown; withoutApiUrl: string };
    expect(result.batch).toEqual({ batchItemFailures: [] });
    expect(result.withoutApiUrl).toMatch(/API_URL/);
  });

  it('bundles functions/handlers/credit-intake/handler.ts into an ESM module that runs and needs CREDIT_INTAKE_QUEUE_URL', () => {
    const fn = stacks.stateless.creditFolder.function;
    const bundle = bundleOf(fn);
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    // An empty batch touches neither DynamoDB nor SQS.
    const out = runInNode(
      bundle,
      `const batch = await m.handler({ Records: [] }, { getRemainingTimeInMillis: () => 30000 });
${importWithout(bundle, 'CREDIT_INTAKE_QUEUE_URL', 'withoutQueueUrl')}
process.stdout.write(JSON.stringify({ batch, withoutQueueUrl }));`,
      envOf(fn),
    );
    const result = JSON.parse(out) as { batch: unknown; withoutQueueUrl: string };
    expect(result.batch).toEqual({ batchItemFailures: [] });
    expect(result.withoutQueueUrl).toMatch(/CREDIT_INTAKE_QUEUE_URL/);
  });

  it('keeps every function bundle within its budget, with the never-loaded credential providers left out', () => {
    const functions = [
      stacks.stateless.httpFunction,
      stacks.stateless.eventsConsumer.function,
      stacks.stateless.outboxDispatcher.function,
      stacks.stateless.journalProjector.function,
      stacks.stateless.sweeper.function,
      stacks.stateless.exportWorker.function,
      stacks.stateless.reconciler.function,
      stacks.stateless.creditFolder.function,
    ];
    for (const fn of functions) {
      const code = readFileSync(bundleOf(fn), 'utf8');
      const budget =
        fn === stacks.stateless.exportWorker.function
          ? BUNDLE_BUDGET_BYTES.exportWorker
          : fn === stacks.stateless.httpFunction
            ? BUNDLE_BUDGET_BYTES.http
            : BUNDLE_BUDGET_BYTES.default;
      expect(Buffer.byteLength(code), fn.node.path).toBeLessThanOrEqual(budget);
      // Still reachable through the default chain's dynamic import, but not bundled; never a
      // static import, which would fail at init (ESM never resolves the runtime's SDK).
      const worker = fn === stacks.stateless.exportWorker.function;
      for (const name of NEVER_LOADED_ON_LAMBDA) {
        expect(code, `${fn.node.path}: ${name}`).not.toMatch(new RegExp(`from\\s*"${name}"`));
        if (!(worker && name === '@smithy/core/event-streams')) {
          expect(code).toContain(`import("${name}")`);
        }
      }
    }
  });

  it('bundles functions/handlers/sweeper/handler.ts into an ESM module that starts with the stack env and needs TABLE_NAME', () => {
    const fn = stacks.stateless.sweeper.function;
    const bundle = bundleOf(fn);
    expect(new Set([bundle, bundleOf(stacks.stateless.httpFunction)]).size).toBe(2);
    expect(readFileSync(bundle, 'utf8').startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    // A sweep queries DynamoDB, so only the cold start runs here; the sweep itself is covered
    // against DynamoDB Local (test/integration/holds/sweeper.test.ts).
    const out = runInNode(
      bundle,
      `const type = typeof m.handler;
${importWithout(bundle, 'TABLE_NAME', 'withoutTable')}
process.stdout.write(JSON.stringify({ type, withoutTable }));`,
      envOf(fn),
    );
    const result = JSON.parse(out) as { type: string; withoutTable: string };
    expect(result.type).toBe('function');
    expect(result.withoutTable).toMatch(/TABLE_NAME/);
  });

  it('has no warning or error annotations on either stack', () => {
    for (const stack of [stacks.stateful, stacks.stateless]) {
      const annotations = Annotations.fromStack(stack);
      annotations.hasNoWarning('*', Match.anyValue());
      annotations.hasNoError('*', Match.anyValue());
    }
  });
});
