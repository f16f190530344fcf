/**
 * Cold start: every Lambda entry is bundled by CDK itself through the shared function construct
 * (so the options are exactly the deployed ones), the Powertools baseline too; then each bundle
 * is imported by fresh `node` processes, alternating bundles, and the import is timed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { withQuietStderr } from '../../kit/quiet-stderr';
import {
  BUNDLE_BUDGET_BYTES,
  handlerEntry,
  LedgerFunction,
} from '../../lib/constructs/shared/ledger-function';
import { median } from '../stats';

const run = promisify(execFile);
const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** The minimal Powertools-idempotency Lambda, bundled the same way as ours. */
export const POWERTOOLS_LAMBDA_ENTRY = resolve(import.meta.dirname, '../http/powertools-lambda.ts');

/**
 * Parts of a bundle measured on their own, bundled the same way, to explain where init time goes.
 * Reported beside the functions, judged against nothing.
 */
export const PROBE_ENTRIES = ['empty', 'dynamodb-client', 'contract-schemas', 'telemetry'].map(
  (name) => resolve(import.meta.dirname, '../probes', `${name}.ts`),
);

/** Stand-ins for what CloudFormation resolves at deploy time; the handlers read them at init. */
const DEPLOYED_ENV: Readonly<Record<string, string>> = {
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'ledger',
  IDEMPOTENCY_TABLE_NAME: 'idempotency',
  DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/ledger-events-dlq',
  EXPORT_JOBS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/export-jobs',
  CREDIT_INTAKE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/credit-intake',
  SEARCH_INDEX_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/search-index',
  WEBHOOK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/webhook-deliveries',
  WEBHOOK_SEALING_KEY_ARN:
    'arn:aws:secretsmanager:us-east-1:123456789012:secret:WebhooksSealingSecret-AbCdEf',
  JOURNAL_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:ledger-journal',
  GAP_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:ledger-gaps',
  STAGE: 'dev',
  CALLBACK_SECRETS_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:callbacks-AbCdEf',
  EXPORT_BUCKET_NAME: 'ledger-exports',
  EXPORT_BUCKET: 'ledger-exports',
  API_URL: 'https://abc123.execute-api.us-east-1.amazonaws.com',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

export interface BundleUnderTest {
  /** e.g. `functions/handlers/http/handler.ts`, `powertools` for the baseline, `probe:empty` for a probe. */
  readonly name: string;
  readonly file: string;
  readonly bytes: number;
  /** NODE_OPTIONS the function is deployed with (e.g. `--enable-source-maps`). */
  readonly nodeOptions: string;
  readonly budgetBytes?: number;
}

export interface ColdStartResult extends BundleUnderTest {
  /** Module-init times of each fresh process, in ms. */
  readonly initMs: number[];
  readonly initMedianMs: number;
}

/** Every `functions/handlers/<name>/handler.ts` is a Lambda entry point. */
export function lambdaEntries(): string[] {
  return readdirSync(join(REPO_ROOT, 'functions', 'handlers'))
    .map(handlerEntry)
    .filter((entry) => existsSync(entry))
    .sort();
}

/** The export worker's and the HTTP function's budgets are their own (judged inside the repo). */
export function budgetBytesOf(entry: string): number {
  const path = relative(REPO_ROOT, entry);
  if (path.startsWith(join('functions', 'handlers', 'export-worker'))) {
    return BUNDLE_BUDGET_BYTES.exportWorker;
  }
  if (path.startsWith(join('functions', 'handlers', 'http'))) return BUNDLE_BUDGET_BYTES.http;
  return BUNDLE_BUDGET_BYTES.default;
}

/** Bundles each entry with CDK's own NodejsFunction bundling, as `cdk synth` would. */
export function bundleLikeCdk(entries: readonly string[], outdir: string): BundleUnderTest[] {
  const app = new App({ outdir });
  const stack = new Stack(app, 'BenchBundles');
  const ids = entries.map((entry, i) => {
    const fn = new LedgerFunction(stack, `Bundle${i}`, { entry });
    return stack.getLogicalId(fn.node.defaultChild as never);
  });
  const template = Template.fromStack(stack);
  const functions = template.findResources('AWS::Lambda::Function') as Record<
    string,
    {
      Properties: {
        Code: { S3Key: string };
        Environment?: { Variables?: Record<string, string> };
      };
    }
  >;
  return entries.map((entry, i) => {
    const fn = functions[ids[i] as string];
    if (!fn) throw new Error(`no bundled function for ${entry}`);
    const file = join(
      outdir,
      `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, '')}`,
      'index.mjs',
    );
    const isBaseline = entry === POWERTOOLS_LAMBDA_ENTRY;
    const isProbe = PROBE_ENTRIES.includes(entry);
    return {
      name: isBaseline
        ? 'powertools'
        : isProbe
          ? `probe:${basename(entry, '.ts')}`
          : relative(REPO_ROOT, entry),
      file,
      bytes: statSync(file).size,
      nodeOptions: fn.Properties.Environment?.Variables?.NODE_OPTIONS ?? '',
      ...(isBaseline || isProbe ? {} : { budgetBytes: budgetBytesOf(entry) }),
    };
  });
}

/**
 * Runs `script` (an ES module that imports `file`, given as `process.argv[1]`) in a fresh node
 * process as the deployed function would start: its NODE_OPTIONS, the deployed environment, the
 * bundle's directory. Answers what the script wrote.
 */
export async function inFreshProcess(
  script: string,
  file: string,
  nodeOptions = '',
): Promise<string> {
  const args = [
    ...nodeOptions.split(' ').filter(Boolean),
    '--input-type=module',
    '-e',
    script,
    pathToFileURL(file).href,
  ];
  const { stdout } = await run(process.execPath, args, {
    env: { PATH: process.env.PATH, ...DEPLOYED_ENV },
    cwd: dirname(file),
    timeout: 30_000,
  });
  return stdout;
}

/** Time to import the bundle in a fresh process (parse, evaluate, module-scope setup). */
export async function initOnce(bundle: BundleUnderTest): Promise<number> {
  const script = `const t = performance.now(); await import(process.argv[1]);
process.stdout.write(String(performance.now() - t));`;
  return Number(await inFreshProcess(script, bundle.file, bundle.nodeOptions));
}

/** `processes` fresh imports per bundle, the bundles alternating so drift hits each alike. */
export async function measureColdStarts(
  bundles: readonly BundleUnderTest[],
  processes: number,
): Promise<ColdStartResult[]> {
  const times = bundles.map(() => [] as number[]);
  for (let i = 0; i < processes; i++) {
    for (const [index, bundle] of bundles.entries()) {
      times[index]?.push(await initOnce(bundle));
    }
  }
  return bundles.map((bundle, index) => {
    const initMs = times[index] ?? [];
    return { ...bundle, initMs, initMedianMs: median(initMs) };
  });
}

/**
 * Bundles `functions` (every Lambda entry unless given) and the baseline, then times their
 * init. A smoke run bundles the HTTP function alone: the bundle test bundles every entry.
 */
export async function coldStartBench(
  processes: number,
  withProbes: boolean,
  quiet = false,
  functions: readonly string[] = lambdaEntries(),
): Promise<ColdStartResult[]> {
  const outdir = mkdtempSync(join(tmpdir(), 'ledger-bench-bundles-'));
  try {
    const entries = [...functions, POWERTOOLS_LAMBDA_ENTRY];
    const bundle = () =>
      bundleLikeCdk(withProbes ? [...entries, ...PROBE_ENTRIES] : entries, outdir);
    const bundles = quiet ? withQuietStderr(bundle) : bundle();
    return await measureColdStarts(bundles, processes);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
