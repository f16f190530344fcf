import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_SLUGS } from '../../../lib/alarm-catalog';
import {
  callbackSecretId,
  EXPORT_BUCKET_ARN,
  EXPORT_BUCKET_NAME,
  expectRolePolicy,
  importOf,
  logicalIdOf,
  onlyLogicalId,
  propertiesOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

/**
 * Exports that produce a file (docs/contract.md §12): the bucket, the worker on export-jobs with
 * least privilege, the HTTP function's read of results, the sweeper's schedule and the alarms.
 */

const EXPORT_OBJECTS = { 'Fn::Join': ['', [...EXPORT_BUCKET_ARN, '/exports/*']] };

let ledger: SynthesizedLedger;
let tableId: string;
let secretId: string;

beforeAll(() => {
  ledger = synthLedger();
  tableId = onlyLogicalId(ledger.stateful, 'AWS::DynamoDB::Table');
  secretId = callbackSecretId(ledger.stateful);
}, SYNTH_HOOK_TIMEOUT_MS);

describe('the export bucket (stateful stack)', () => {
  it('blocks public access, encrypts, and owns its objects', () => {
    ledger.stateful.resourceCountIs('AWS::S3::Bucket', 1);
    ledger.stateful.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: EXPORT_BUCKET_NAME,
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
        ],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
  });

  it('expires exports/ after EXPORT_RETENTION_DAYS (default 7) and drops unfinished uploads', () => {
    ledger.stateful.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: [
          {
            Id: 'expire-exports',
            Prefix: 'exports/',
            Status: 'Enabled',
            ExpirationInDays: 7,
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          },
        ],
      },
    });
    const custom = synthLedger({ exportRetentionDays: '30' });
    custom.stateful.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 30 })] },
    });
  });

  it('refuses any request without TLS (bucket policy)', () => {
    ledger.stateful.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('is retained by default and follows removalPolicy=destroy', () => {
    ledger.stateful.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
    const destroy = synthLedger({ removalPolicy: 'destroy', deletionProtection: 'false' });
    destroy.stateful.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Delete' });
    // No auto-delete custom resource (it would be one more function with broad S3 rights).
    destroy.stateful.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });
});

describe('the export worker (stateless stack)', () => {
  const worker = () =>
    propertiesOfId(
      ledger.stateless,
      'AWS::Lambda::Function',
      logicalIdOf(ledger.stacks.stateless.exportWorker.function),
    );

  it('runs 120 s (its retries fit the 900 s deadline: export-retries.test.ts), 1 GB, with its env', () => {
    expect(worker()).toMatchObject({ Timeout: 120, MemorySize: 1024, Runtime: 'nodejs22.x' });
    const vars = (worker().Environment as { Variables: Record<string, unknown> }).Variables;
    expect(vars).toMatchObject({
      EXPORT_BUCKET: EXPORT_BUCKET_NAME,
      EXPORT_EXECUTION_TIMEOUT_SECONDS: '900',
      CALLBACK_SECRETS_ARN: importOf(ledger, { Ref: secretId }),
      API_URL: expect.anything(),
    });
  });

  it('takes one job per invocation from export-jobs, with partial batch responses', () => {
    ledger.stateless.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(ledger.stacks.stateless.exportWorker.function) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });

  it('may lease executions, read entries, write exports/* and read the secret: nothing else', () => {
    const queueArn = importOf(ledger, {
      'Fn::GetAtt': [
        Object.entries(propertiesOf(ledger.stateful, 'AWS::SQS::Queue')).find(([, q]) =>
          String(q.QueueName).endsWith('-export-jobs'),
        )?.[0],
        'Arn',
      ],
    });
    expectRolePolicy(ledger, ledger.stacks.stateless.exportWorker.function, [
      {
        Action: [
          'sqs:ReceiveMessage',
          'sqs:ChangeMessageVisibility',
          'sqs:GetQueueUrl',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
        ],
        Resource: queueArn,
      },
      {
        Sid: 'LedgerTableExportReads',
        Action: ['dynamodb:UpdateItem', 'dynamodb:Query'],
        Resource: importOf(ledger, { 'Fn::GetAtt': [tableId, 'Arn'] }),
      },
      {
        Sid: 'ExportObjectsWrite',
        Action: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'],
        Resource: EXPORT_OBJECTS,
      },
      {
        Sid: 'CallbackSecretRead',
        Action: 'secretsmanager:GetSecretValue',
        Resource: importOf(ledger, { Ref: secretId }),
      },
    ]);
  });
});

describe('export alarms', () => {
  const alarm = (slug: string) =>
    Object.values(propertiesOf(ledger.stateless, 'AWS::CloudWatch::Alarm')).find(
      (a) => a.AlarmName === `idempotent-ledger-dev-${slug}`,
    );

  it('alarms on worker errors, sweeper errors and executions overdue for 5 minutes', () => {
    expect(alarm(ALARM_SLUGS.exportWorkerErrors)).toMatchObject({
      MetricName: 'Errors',
      Dimensions: [
        {
          Name: 'FunctionName',
          Value: { Ref: logicalIdOf(ledger.stacks.stateless.exportWorker.function) },
        },
      ],
    });
    expect(alarm(ALARM_SLUGS.sweeperErrors)).toMatchObject({ MetricName: 'Errors' });
    expect(alarm(ALARM_SLUGS.overdueExecutions)).toMatchObject({
      Threshold: 300,
      Metrics: [
        {
          MetricStat: {
            Metric: {
              Namespace: 'IdempotentLedger',
              MetricName: 'SweepOldestDueAgeSeconds',
              Dimensions: [
                { Name: 'kind', Value: 'execution' },
                { Name: 'service', Value: 'ledger-sweeper' },
              ],
            },
            Stat: 'Maximum',
          },
        },
      ],
    });
    // export-jobs-dlq depth: the existing dead-letter alarm.
    expect(alarm(ALARM_SLUGS.exportJobsDeadLetters)).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
    });
  });
});

describe('the HTTP function reads results', () => {
  it('may GetObject on exports/* (HEAD and presigned GET) and ListBucket (404, not 403)', () => {
    const http = propertiesOfId(
      ledger.stateless,
      'AWS::Lambda::Function',
      logicalIdOf(ledger.stacks.stateless.httpFunction),
    );
    const vars = (http.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(vars).toMatchObject({ EXPORT_BUCKET: EXPORT_BUCKET_NAME, EXPORT_RETENTION_DAYS: '7' });
  });
});
