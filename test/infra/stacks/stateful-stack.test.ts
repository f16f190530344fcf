import { App, Duration } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TTL_ATTRIBUTE } from '../../../functions/dynamodb/table/keys';
import { LedgerConfigError } from '../../../lib/config';
import { StatefulStack } from '../../../lib/stateful-stack';
import {
  logicalIdOf,
  onlyLogicalId,
  propertiesOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

/** The account directory's indexes (functions/dynamodb/table/account-index.ts), spelled out. */
const ACCOUNT_DIRECTORY = [
  ['accounts', 'accountsShard', 'accountsAt'],
  ['account-owners', 'ownerKey', 'accountsAt'],
  ['account-names', 'accountsShard', 'nameKey'],
].map(([IndexName, hash, range]) => ({
  IndexName,
  KeySchema: [
    { AttributeName: hash, KeyType: 'HASH' },
    { AttributeName: range, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'KEYS_ONLY' },
}));

describe('StatefulStack', () => {
  let template: Template;
  let unprotected: Template;

  beforeAll(() => {
    template = synthLedger().stateful;
    unprotected = synthLedger({ deletionProtection: 'false' }).stateful;
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('holds exactly one DynamoDB table, eleven SQS queues, two secrets and nothing stateless', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    // ledger-events (+ DLQ), export-jobs (+ DLQ), outbox-dispatch-dlq, credit-intake (+ DLQ),
    // search-index (+ DLQ), webhook-deliveries (+ DLQ).
    template.resourceCountIs('AWS::SQS::Queue', 11);
    // The callback secrets and the webhook sealing key.
    template.resourceCountIs('AWS::SecretsManager::Secret', 2);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
    template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    template.resourceCountIs('AWS::Lambda::Function', 0);
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
  });

  it('keys the table on pk (HASH, S) and sk (RANGE, S), on-demand', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ]),
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it("has the sweeper's sparse due index and the statements' effective index (§26)", () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'dueShard', AttributeType: 'N' },
        { AttributeName: 'dueAt', AttributeType: 'N' },
      ]),
      GlobalSecondaryIndexes: [
        {
          IndexName: 'due',
          KeySchema: [
            { AttributeName: 'dueShard', KeyType: 'HASH' },
            { AttributeName: 'dueAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'effective',
          KeySchema: [
            { AttributeName: 'effectiveAccount', KeyType: 'HASH' },
            { AttributeName: 'effectiveKey', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        ...ACCOUNT_DIRECTORY,
      ],
    });
  });

  it("has the console's account directory: three KEYS_ONLY indexes (§31)", () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'accountsShard', AttributeType: 'S' },
        { AttributeName: 'accountsAt', AttributeType: 'S' },
        { AttributeName: 'ownerKey', AttributeType: 'S' },
        { AttributeName: 'nameKey', AttributeType: 'S' },
      ]),
    });
  });

  it('enables TTL on expiresAt (the store key constant)', () => {
    expect(TTL_ATTRIBUTE).toBe('expiresAt');
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  it('enables point-in-time recovery and AWS-managed (KMS) encryption', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true, KMSMasterKeyId: Match.absent() },
    });
  });

  it('streams NEW_IMAGE for the outbox dispatcher', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('retains the table on stack delete and on replacement', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('turns deletion protection on by default and off with deletionProtection=false', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
    unprotected.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
  });

  it('outputs the table name', () => {
    const tableId = onlyLogicalId(template, 'AWS::DynamoDB::Table');
    template.hasOutput('TableName', { Value: { Ref: tableId } });
  });
});

/**
 * An upgraded stage gains the directory's indexes one deploy at a time (CloudFormation creates at
 * most one GSI per table update): context `accountDirectoryIndexes` (docs/deployment.md
 * "Upgrading to the account directory").
 */
describe('StatefulStack: accountDirectoryIndexes', () => {
  const tableOf = (template: Template) => {
    const [table] = Object.values(propertiesOf(template, 'AWS::DynamoDB::Table'));
    return table as {
      GlobalSecondaryIndexes: { IndexName: string }[];
      AttributeDefinitions: { AttributeName: string }[];
    };
  };
  const indexesOf = (template: Template) =>
    tableOf(template).GlobalSecondaryIndexes.map((index) => index.IndexName);
  const attributesOf = (template: Template) =>
    tableOf(template)
      .AttributeDefinitions.map((a) => a.AttributeName)
      .sort();
  const BEFORE = ['due', 'effective'];
  const BEFORE_ATTRIBUTES = ['dueAt', 'dueShard', 'effectiveAccount', 'effectiveKey', 'pk', 'sk'];

  it.each([
    // As `-c accountDirectoryIndexes=1` hands it over: a string.
    ['1', ['accounts'], ['accountsAt', 'accountsShard']],
    [2, ['accounts', 'account-owners'], ['accountsAt', 'accountsShard', 'ownerKey']],
    [0, [], []],
    [
      3,
      ['accounts', 'account-owners', 'account-names'],
      ['accountsAt', 'accountsShard', 'nameKey', 'ownerKey'],
    ],
  ])(
    'accountDirectoryIndexes=%j: exactly the first of them, and only their attributes',
    (value, directory, attributes) => {
      const { stateful } = synthLedger({ accountDirectoryIndexes: value });
      expect(indexesOf(stateful)).toEqual([...BEFORE, ...directory]);
      expect(attributesOf(stateful)).toEqual([...BEFORE_ATTRIBUTES, ...attributes].sort());
    },
    SYNTH_HOOK_TIMEOUT_MS,
  );

  it('defaults to all three, as a fresh stage needs', () => {
    expect(indexesOf(synthLedger().stateful)).toEqual([
      ...BEFORE,
      'accounts',
      'account-owners',
      'account-names',
    ]);
  });

  it('refuses anything but an integer from 0 to 3 at synth', () => {
    for (const refused of [4, -1, '1.5', 'all', 'accounts', true]) {
      const synth = () => synthLedger({ accountDirectoryIndexes: refused });
      expect(synth, String(refused)).toThrow(LedgerConfigError);
      expect(synth, String(refused)).toThrow(
        `Invalid CDK context: accountDirectoryIndexes must be an integer from 0 to 3; got ${JSON.stringify(refused)}`,
      );
    }
    // The construct checks too, for a caller that skips the context.
    expect(() => new StatefulStack(new App(), 'Refused', { accountDirectoryIndexes: 4 })).toThrow(
      /accountDirectoryIndexes must be an integer from 0 to 3; got 4/,
    );
  });
});

describe('StatefulStack: ledger-events queues', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let qa: Template;
  let queueId: string;
  let dlqId: string;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateful;
    qa = synthLedger({ stage: 'qa', deletionProtection: 'false' }).stateful;
    queueId = logicalIdOf(ledger.stacks.stateful.eventQueues.queue);
    dlqId = logicalIdOf(ledger.stacks.stateful.eventQueues.deadLetterQueue);
  }, SYNTH_HOOK_TIMEOUT_MS);

  const queue = () => propertiesOfId(template, 'AWS::SQS::Queue', queueId);
  const dlq = () => propertiesOfId(template, 'AWS::SQS::Queue', dlqId);

  it('names the queues <stage>-ledger-events and <stage>-ledger-events-dlq', () => {
    expect(queue().QueueName).toBe('dev-ledger-events');
    expect(dlq().QueueName).toBe('dev-ledger-events-dlq');
    const qaNames = Object.values(propertiesOf(qa, 'AWS::SQS::Queue')).map((q) => q.QueueName);
    expect(qaNames.filter((n) => String(n).includes('ledger-events')).sort()).toEqual([
      'qa-ledger-events',
      'qa-ledger-events-dlq',
    ]);
  });

  it('creates standard queues (not FIFO)', () => {
    for (const q of [queue(), dlq()]) expect(q.FifoQueue).toBeUndefined();
  });

  it('encrypts both queues with SQS-managed SSE', () => {
    for (const q of [queue(), dlq()]) {
      expect(q.SqsManagedSseEnabled).toBe(true);
      expect(q.KmsMasterKeyId).toBeUndefined();
    }
  });

  it('denies every non-TLS request on both queues (enforceSSL)', () => {
    for (const id of [queueId, dlqId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            {
              Effect: 'Deny',
              Action: 'sqs:*',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: { 'Fn::GetAtt': [id, 'Arn'] },
            },
          ]),
        },
      });
    }
  });

  it('keeps dead letters 14 days, longer than the main queue keeps messages', () => {
    expect(dlq().MessageRetentionPeriod).toBe(1_209_600);
    // Redrive keeps the original enqueue time, so the DLQ must outlive the main queue.
    expect(queue().MessageRetentionPeriod).toBeLessThan(1_209_600);
  });

  it('redrives to the DLQ after 5 receives; the DLQ has no redrive of its own', () => {
    expect(queue().RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: 5,
    });
    expect(dlq().RedrivePolicy).toBeUndefined();
  });

  it('derives the visibility timeout as 6 x the 30 s consumer timeout', () => {
    expect(queue().VisibilityTimeout).toBe(180);
    expect(ledger.stacks.stateful.eventQueues.visibilityTimeout.toSeconds()).toBe(180);
  });

  it('retains both queues by default and deletes them with deletionProtection=false', () => {
    for (const id of [queueId, dlqId]) {
      expect(template.toJSON().Resources[id]).toMatchObject({
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
    const qaQueues = Object.values(qa.findResources('AWS::SQS::Queue'));
    expect(qaQueues).toHaveLength(11);
    for (const q of qaQueues) {
      expect(q).toMatchObject({ DeletionPolicy: 'Delete', UpdateReplacePolicy: 'Delete' });
    }
  });

  it('outputs both queue URLs', () => {
    template.hasOutput('EventsQueueUrl', { Value: { Ref: queueId } });
    template.hasOutput('EventsDeadLetterQueueUrl', { Value: { Ref: dlqId } });
  });
});

describe('StatefulStack: visibility timeout validation', () => {
  const synthStateful = (props: ConstructorParameters<typeof StatefulStack>[2]) =>
    Template.fromStack(
      new StatefulStack(new App({ builtinCloudFormationValidation: false }), 'Stateful', props),
    );

  it('follows a longer consumer timeout (6 x 60 s = 360 s)', () => {
    synthStateful({ eventsConsumerTimeout: Duration.seconds(60) }).hasResourceProperties(
      'AWS::SQS::Queue',
      { VisibilityTimeout: 360 },
    );
  });

  it('accepts an explicit visibility timeout of exactly 6 x the consumer timeout', () => {
    synthStateful({
      eventsConsumerTimeout: Duration.seconds(30),
      eventsVisibilityTimeout: Duration.seconds(180),
    }).hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: 180 });
  });

  it('throws when the visibility timeout is below 6 x the consumer timeout', () => {
    expect(() =>
      synthStateful({
        eventsConsumerTimeout: Duration.seconds(30),
        eventsVisibilityTimeout: Duration.seconds(179),
      }),
    ).toThrow(
      /visibility timeout \(179 s\) must be at least 6 × the consumer timeout \(30 s\) = 180 s/,
    );
  });
});
