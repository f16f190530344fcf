/**
 * Webhooks on AWS (docs/contract.md §32): the delivery queue on the journal topic, its DLQ, the
 * sealing key, the delivery function and its event source, what the HTTP function gets, the
 * alarms. cdk-nag runs over all of it in test/infra/stacks/nag.test.ts.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SYNTH_HOOK_TIMEOUT_MS, synthLedger } from '../synth';

let stateful: Template;
let stateless: Template;

beforeAll(() => {
  ({ stateful, stateless } = synthLedger());
}, SYNTH_HOOK_TIMEOUT_MS);

/** The functions whose description contains `text`. */
const functionsDescribed = (text: string) =>
  Object.values(stateless.findResources('AWS::Lambda::Function')).filter((f) =>
    (f as { Properties: { Description?: string } }).Properties.Description?.includes(text),
  ) as { Properties: Record<string, unknown> }[];

describe('webhook resources (stateful)', () => {
  it('subscribes webhook-deliveries to the journal topic with raw delivery, redriven to its DLQ', () => {
    stateful.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: Match.stringLikeRegexp('webhook-deliveries$'),
      RedrivePolicy: { maxReceiveCount: 5 },
      VisibilityTimeout: 720,
      SqsManagedSseEnabled: true,
    });
    stateful.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: Match.stringLikeRegexp('webhook-deliveries-dlq$'),
    });
    stateful.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'sqs',
      RawMessageDelivery: true,
    });
  });

  it('keeps the sealing key in Secrets Manager, encrypted with a rotated customer key', () => {
    stateful.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    stateful.hasResourceProperties('AWS::SecretsManager::Secret', {
      KmsKeyId: Match.anyValue(),
      GenerateSecretString: Match.objectLike({ PasswordLength: 64, ExcludePunctuation: true }),
    });
  });
});

describe('webhook delivery (stateless)', () => {
  it('runs its own function outside any VPC, with its queue, key and stage', () => {
    const found = functionsDescribed('webhook delivery');
    expect(found).toHaveLength(1);
    const props = found[0]?.Properties ?? {};
    expect(props.VpcConfig).toBeUndefined();
    expect(props.Timeout).toBe(120);
    const variables = (props.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining([
        'WEBHOOK_QUEUE_URL',
        'WEBHOOK_SEALING_KEY_ARN',
        'STAGE',
        'TABLE_NAME',
      ]),
    );
  });

  it('consumes webhook-deliveries with partial batch responses', () => {
    stateless.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 10 },
    });
  });

  it('gives the HTTP function the queue (retries) and the sealing key, nothing more', () => {
    const [http] = functionsDescribed('HTTP API');
    const environment = http?.Properties.Environment as { Variables: object } | undefined;
    const variables = environment?.Variables ?? {};
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining(['WEBHOOK_QUEUE_URL', 'WEBHOOK_SEALING_KEY_ARN']),
    );
    const policies = JSON.stringify(stateless.findResources('AWS::IAM::Policy'));
    for (const sid of ['WebhookSealingKeyRead', 'WebhookSealingKeyDecrypt', 'WebhookRetryQueue']) {
      expect(policies).toContain(sid);
    }
  });

  it('alarms on failed deliveries, a queue that falls behind, and its DLQ', () => {
    const names = Object.values(stateless.findResources('AWS::CloudWatch::Alarm')).map(
      (a) => (a as { Properties: { AlarmName: string } }).Properties.AlarmName,
    );
    for (const slug of [
      'webhook-deliveries-failed',
      'webhook-deliveries-behind',
      'webhook-deliveries-dlq-not-empty',
    ]) {
      expect(
        names.some((name) => name.endsWith(slug)),
        slug,
      ).toBe(true);
    }
  });
});
