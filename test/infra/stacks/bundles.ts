/**
 * Helpers of bundling.test.ts: where a staged bundle lives, the environment a deployed function
 * gets, and importing a bundle in a fresh Node process (a cold start).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';

/**
 * Directory of the staged Lambda asset of function `logicalId` (the only function when omitted),
 * found through the template's S3 key.
 */
export function bundleDir(outdir: string, template: Template, logicalId?: string): string {
  const functions = template.findResources('AWS::Lambda::Function') as Record<
    string,
    { Properties: { Code: { S3Key: string } } }
  >;
  if (logicalId === undefined) expect(Object.keys(functions)).toHaveLength(1);
  const fn = logicalId === undefined ? Object.values(functions)[0] : functions[logicalId];
  const s3Key = fn?.Properties.Code.S3Key ?? '';
  expect(s3Key).toMatch(/^[0-9a-f]{64}\.zip$/);
  return join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`);
}

/** Environment the fixture handler reads (`loadConfig(process.env)`). */
export const FIXTURE_ENV = { TABLE_NAME: 'ledger-test', AWS_REGION: 'eu-west-1' };

/**
 * Stand-ins for the values CloudFormation resolves at deploy time (imports from the stateful
 * stack). Keyed by variable name; a variable the stack adds without an entry here fails the test,
 * so the child process always sees every variable the deployed function would.
 */
export const DEPLOY_TIME_VALUES: Readonly<Record<string, string>> = {
  TABLE_NAME: 'ledger-test',
  DLQ_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/test-ledger-events-dlq',
  EXPORT_JOBS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/test-export-jobs',
  CREDIT_INTAKE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/test-credit-intake',
  CALLBACK_SECRETS_ARN:
    'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CallbackSecretsSecret-AbCdEf',
  EXPORT_BUCKET: 'test-ledger-exports-123456789012-eu-west-1',
  API_URL: 'https://abc123.execute-api.eu-west-1.amazonaws.com/',
  JOURNAL_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:test-ledger-journal',
  GAP_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:test-ledger-gaps',
  SEARCH_INDEX_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/test-search-index',
  WEBHOOK_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/test-webhook-deliveries',
  WEBHOOK_SEALING_KEY_ARN:
    'arn:aws:secretsmanager:eu-west-1:123456789012:secret:WebhooksSealingSecret-AbCdEf',
};

/**
 * The environment function `logicalId` gets when deployed: its template variables, with
 * deploy-time values replaced by {@link DEPLOY_TIME_VALUES}, plus what the Lambda runtime sets.
 */
export function deployedEnv(template: Template, logicalId: string): Record<string, string> {
  const fn = template.findResources('AWS::Lambda::Function')[logicalId] as
    | { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
    | undefined;
  if (!fn) throw new Error(`no function ${logicalId}`);
  const env: Record<string, string> = { AWS_REGION: 'eu-west-1' };
  for (const [name, value] of Object.entries(fn.Properties.Environment?.Variables ?? {})) {
    if (typeof value === 'string') {
      env[name] = value;
    } else {
      const stand = DEPLOY_TIME_VALUES[name];
      if (stand === undefined) throw new Error(`no deploy-time stand-in for ${name}`);
      env[name] = stand;
    }
  }
  return env;
}

/**
 * Imports the bundle in a fresh Node process (like a cold start) and runs `script` on it. The
 * child gets `env` and PATH only, so a variable in the developer's shell (e.g. the local stack's
 * CALLBACK_SECRETS) cannot make a missing one go unnoticed.
 */
export function runInNode(
  bundle: string,
  script: string,
  env: Readonly<Record<string, string>>,
): string {
  return execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)});\n${script}`,
    ],
    {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...env,
      },
      timeout: 20_000,
      // Keep an expected import failure's stack trace out of the test output.
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/**
 * Script fragment: a second, fresh evaluation of the bundle (new URL) after deleting `variable`,
 * resolving to 'imported' or the import error's message.
 */
export const importWithout = (bundle: string, variable: string, label: string): string => {
  const fresh = `${pathToFileURL(bundle).href}?without-${variable}`;
  return `delete process.env.${variable};
const ${label} = await import(${JSON.stringify(fresh)}).then(
  () => 'imported',
  (error) => String(error?.message ?? error),
);`;
};
