/**
 * cdk-nag (AWS Solutions) over both stacks, the way `bin/app.ts` registers it. cdk-nag 3 is a CDK
 * policy validation plugin: findings are not annotations but a validation report, and an
 * unacknowledged one (error or warning) makes the synth throw. This file checks that no finding
 * is left, that every acknowledgement is the reviewed one (with its reason, in the docs), and
 * that the plugin really runs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { addComplianceChecks } from '../../../lib/compliance';
import type { RawLedgerContext } from '../../../lib/config';
import { SYNTH_HOOK_TIMEOUT_MS, type SynthesizedLedger, synthLedger } from '../synth';

const DEPLOYMENT_DOC = readFileSync(
  resolve(import.meta.dirname, '../../../docs/deployment.md'),
  'utf8',
);

/** Two configurations that between them switch on every optional resource and branch. */
const CONFIGS: Record<string, RawLedgerContext> = {
  'default (IAM auth, retained)': {},
  'prod-like (JWT, e-mail, reserved concurrency, destroy, no dispatcher reservation)': {
    stage: 'prod',
    jwtIssuer: 'https://issuer.example.com/',
    jwtAudience: 'ledger-api',
    alarmEmail: 'oncall@example.com',
    httpReservedConcurrency: '20',
    dispatcherReservedConcurrency: 'none',
    removalPolicy: 'destroy',
    deletionProtection: 'false',
    logRetentionDays: '365',
  },
};

/** The `exports/` objects of the stage's export bucket, as cdk-nag prints the ARN. */
const EXPORT_OBJECTS =
  'arn:<AWS::Partition>:s3:::<stage>-ledger-exports-<AWS::AccountId>-<AWS::Region>/exports/*';

/**
 * Every acknowledgement in the app, as (construct path without the stack, rule id). Written out
 * here on purpose: a new suppression must be added to this list and to docs/deployment.md.
 */
const EXPECTED_ACKNOWLEDGEMENTS = [
  ['stateful', 'OutboxDispatchDeadLetterQueue', 'AwsSolutions-SQS3'],
  ['stateful', 'CallbackSecrets/Secret', 'AwsSolutions-SMG4'],
  // The webhook sealing key: rotating it would lose every sealed secret (its KMS key rotates).
  ['stateful', 'Webhooks/SealingSecret', 'AwsSolutions-SMG4'],
  ['stateless', 'WebhookDelivery/Function', 'AwsSolutions-L1'],
  ['stateless', 'HttpFunction', 'AwsSolutions-L1'],
  ['stateless', 'EventsConsumer/Function', 'AwsSolutions-L1'],
  ['stateless', 'OutboxDispatcher/Function', 'AwsSolutions-L1'],
  ['stateless', 'OutboxDispatcher/FunctionServiceRole', 'AwsSolutions-IAM5[Resource::*]'],
  ['stateless', 'Sweeper/Function', 'AwsSolutions-L1'],
  ['stateless', 'Reconciler/Function', 'AwsSolutions-L1'],
  ['stateless', 'JournalProjector/Function', 'AwsSolutions-L1'],
  ['stateless', 'CreditFolder/Function', 'AwsSolutions-L1'],
  ['stateless', 'SearchIndexer/Function', 'AwsSolutions-L1'],
  ['stateless', 'JournalProjector/FunctionServiceRole', 'AwsSolutions-IAM5[Resource::*]'],
  ['stateless', 'HttpApi/Api/POST--v1--callbacks--{applicationId}', 'AwsSolutions-APIG4'],
  ['stateless', 'HttpApi/Api/GET--v1--health', 'AwsSolutions-APIG4'],
  ['stateless', 'HttpApi/Api/GET--v1--openapi.json', 'AwsSolutions-APIG4'],
  ['stateless', 'HttpApi/Api/GET--v1--problems--{code}', 'AwsSolutions-APIG4'],
  ['stateful', 'Exports/Bucket', 'AwsSolutions-S1'],
  ['stateless', 'ExportWorker/Function', 'AwsSolutions-L1'],
  ['stateless', 'HttpFunctionServiceRole', `AwsSolutions-IAM5[Resource::${EXPORT_OBJECTS}]`],
  [
    'stateless',
    'ExportWorker/FunctionServiceRole',
    `AwsSolutions-IAM5[Resource::${EXPORT_OBJECTS}]`,
  ],
].map(([stack, path, id]) => `${stack} ${path} ${id}`);

interface Acknowledgement {
  readonly path: string;
  readonly id: string;
  readonly reason: string;
}

/** Every `Validations.of(...).acknowledge(...)` recorded in the tree under `root`. */
function acknowledgementsIn(root: IConstruct): Acknowledgement[] {
  const found: Acknowledgement[] = [];
  for (const construct of root.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        found.push({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason });
      }
    }
  }
  return found;
}

describe.each(Object.entries(CONFIGS))('cdk-nag AwsSolutions: %s', (_name, raw) => {
  let ledger: SynthesizedLedger;
  let synthError: unknown;

  beforeAll(() => {
    try {
      // Registers the plugin exactly as bin/app.ts does; the templates are synthesized here, and
      // an unacknowledged finding throws with the full report.
      ledger = synthLedger(raw, { compliance: true });
    } catch (error) {
      synthError = error;
    }
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('synthesizes with the plugin registered: no unacknowledged error or warning', () => {
    expect(synthError, String((synthError as Error | undefined)?.message)).toBeUndefined();
  });

  it('leaves no finding when the pack runs over the whole app again', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(ledger.app);
    const findings = report.violations.flatMap((v) =>
      v.violatingResources.map((r) => `${v.severity} ${v.ruleName} at ${r.constructPath}`),
    );
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('adds no AwsSolutions annotation (error or warning) to either stack', () => {
    for (const stack of [ledger.stacks.stateful, ledger.stacks.stateless]) {
      const annotations = Annotations.fromStack(stack);
      const pattern = Match.stringLikeRegexp('AwsSolutions-.*');
      expect(annotations.findError('*', pattern)).toEqual([]);
      expect(annotations.findWarning('*', pattern)).toEqual([]);
    }
  });

  it('acknowledges exactly the reviewed findings, each with a concrete reason', () => {
    const stage = ledger.stacks.stateful.stackName.replace(/-stateful$/, '');
    const acknowledgements = acknowledgementsIn(ledger.app);
    const keys = acknowledgements.map((a) => {
      const [stackName, ...rest] = a.path.split('/');
      const id = a.id.replace(`:::${stage.replace('idempotent-ledger-', '')}-`, ':::<stage>-');
      return `${(stackName ?? '').replace(`${stage}-`, '')} ${rest.join('/')} ${id}`;
    });
    expect(keys.sort()).toEqual([...EXPECTED_ACKNOWLEDGEMENTS].sort());
    for (const acknowledgement of acknowledgements) {
      // A reason says why the rule does not apply or cannot be met, not just "suppressed".
      expect(acknowledgement.reason.length, acknowledgement.id).toBeGreaterThan(100);
    }
  });

  it('fixes IAM4 instead of suppressing it: no role has a managed policy', () => {
    ledger.stateless.resourceCountIs('AWS::IAM::Role', 10);
    const withManagedPolicy = { Properties: { ManagedPolicyArns: Match.anyValue() } };
    expect(ledger.stateless.findResources('AWS::IAM::Role', withManagedPolicy)).toEqual({});
  });
});

describe('cdk-nag suppressions are documented', () => {
  it('lists every acknowledged rule id in the docs/deployment.md suppressions table', () => {
    const ids = new Set(EXPECTED_ACKNOWLEDGEMENTS.map((key) => key.split(' ')[2]));
    for (const id of ids) expect(DEPLOYMENT_DOC, id).toContain(`\`${id}\``);
  });
});

describe('addComplianceChecks', () => {
  it('really runs the AwsSolutions pack: an unencrypted queue without a DLQ fails the synth', () => {
    const app = new App({ builtinCloudFormationValidation: false });
    new sqs.Queue(new Stack(app, 'Probe'), 'Queue', {
      encryption: sqs.QueueEncryption.UNENCRYPTED,
    });
    addComplianceChecks(app);
    expect(() => app.synth()).toThrow(/AwsSolutions-SQS3/);
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => v.ruleName)).toEqual(
      expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']),
    );
  });
});
