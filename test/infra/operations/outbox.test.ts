import { App, Stack } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PENDING_CREDIT_KIND } from '../../../functions/dynamodb/intake/items';
import { ALARM_SLUGS } from '../../../lib/alarm-catalog';
import { OutboxDispatcher } from '../../../lib/constructs/exports/outbox-dispatcher';
import {
  asList,
  expectRolePolicy,
  exportedValue,
  importOf,
  logicalIdOf,
  propertiesOf,
  propertiesOfId,
  roleIdOf,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  statementsNotOf,
  statementsOf,
  stubHandlerCode,
  synthLedger,
} from '../synth';

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe('StatefulStack: export-jobs and outbox-dispatch-dlq', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let queueId: string;
  let dlqId: string;
  let dispatchDlqId: string;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateful;
    queueId = logicalIdOf(ledger.stacks.stateful.exportJobQueues.queue);
    dlqId = logicalIdOf(ledger.stacks.stateful.exportJobQueues.deadLetterQueue);
    dispatchDlqId = logicalIdOf(ledger.stacks.stateful.outboxDispatchDeadLetterQueue);
  }, SYNTH_HOOK_TIMEOUT_MS);

  const queue = (id: string) => propertiesOfId(template, 'AWS::SQS::Queue', id);

  it('names the queues <stage>-export-jobs, <stage>-export-jobs-dlq, <stage>-outbox-dispatch-dlq', () => {
    expect(queue(queueId).QueueName).toBe('dev-export-jobs');
    expect(queue(dlqId).QueueName).toBe('dev-export-jobs-dlq');
    expect(queue(dispatchDlqId).QueueName).toBe('dev-outbox-dispatch-dlq');
    const qa = synthLedger({ stage: 'qa' }).stateful;
    const names = Object.values(propertiesOf(qa, 'AWS::SQS::Queue')).map((q) => q.QueueName);
    expect(names).toEqual(
      expect.arrayContaining(['qa-export-jobs', 'qa-export-jobs-dlq', 'qa-outbox-dispatch-dlq']),
    );
  });

  it('encrypts all three with SQS-managed SSE, as standard queues', () => {
    for (const id of [queueId, dlqId, dispatchDlqId]) {
      expect(queue(id).SqsManagedSseEnabled).toBe(true);
      expect(queue(id).KmsMasterKeyId).toBeUndefined();
      expect(queue(id).FifoQueue).toBeUndefined();
    }
  });

  it('denies every non-TLS request on all three (enforceSSL)', () => {
    for (const id of [queueId, dlqId, dispatchDlqId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            {
              Effect: 'Deny',
              Action: 'sqs:*',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: arnOf(id),
            },
          ]),
        },
      });
    }
  });

  it('redrives export-jobs to its own DLQ after 5 receives; the DLQs have no redrive', () => {
    expect(queue(queueId).RedrivePolicy).toEqual({
      deadLetterTargetArn: arnOf(dlqId),
      maxReceiveCount: 5,
    });
    expect(queue(dlqId).RedrivePolicy).toBeUndefined();
    expect(queue(dispatchDlqId).RedrivePolicy).toBeUndefined();
  });

  it('keeps dead letters 14 days, jobs 4 days, and hides a received job the worker timeout + 30 s', () => {
    expect(queue(dlqId).MessageRetentionPeriod).toBe(1_209_600);
    expect(queue(dispatchDlqId).MessageRetentionPeriod).toBe(1_209_600);
    expect(queue(queueId).MessageRetentionPeriod).toBe(345_600);
    // 120 s + 30 s; test/infra/exports/export-retries.test.ts pins the whole retry arithmetic.
    expect(queue(queueId).VisibilityTimeout).toBe(150);
  });

  it('retains all three by default and deletes them with deletionProtection=false', () => {
    for (const id of [queueId, dlqId, dispatchDlqId]) {
      expect(template.toJSON().Resources[id]).toMatchObject({
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
    const unprotected = synthLedger({ deletionProtection: 'false' });
    const resources = unprotected.stateful.toJSON().Resources;
    for (const q of [
      unprotected.stacks.stateful.exportJobQueues.queue,
      unprotected.stacks.stateful.exportJobQueues.deadLetterQueue,
      unprotected.stacks.stateful.outboxDispatchDeadLetterQueue,
    ]) {
      expect(resources[logicalIdOf(q)]).toMatchObject({
        DeletionPolicy: 'Delete',
        UpdateReplacePolicy: 'Delete',
      });
    }
  });

  it('outputs the three queue URLs', () => {
    template.hasOutput('ExportJobsQueueUrl', { Value: { Ref: queueId } });
    template.hasOutput('ExportJobsDeadLetterQueueUrl', { Value: { Ref: dlqId } });
    template.hasOutput('OutboxDispatchDeadLetterQueueUrl', { Value: { Ref: dispatchDlqId } });
  });
});

describe('StatelessStack: outbox dispatcher', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let functionId: string;
  let roleId: string;
  let tableId: string;
  let queueId: string;
  let dlqId: string;
  let dispatchDlqId: string;
  let intakeId: string;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateless;
    intakeId = logicalIdOf(ledger.stacks.stateful.creditIntakeQueues.queue);
    functionId = logicalIdOf(ledger.stacks.stateless.outboxDispatcher.function);
    roleId = roleIdOf(ledger.stacks.stateless.outboxDispatcher.function);
    tableId = logicalIdOf(ledger.stacks.stateful.table);
    queueId = logicalIdOf(ledger.stacks.stateful.exportJobQueues.queue);
    dlqId = logicalIdOf(ledger.stacks.stateful.exportJobQueues.deadLetterQueue);
    dispatchDlqId = logicalIdOf(ledger.stacks.stateful.outboxDispatchDeadLetterQueue);
  }, SYNTH_HOOK_TIMEOUT_MS);

  const dispatcher = () => propertiesOfId(template, 'AWS::Lambda::Function', functionId);
  const mapping = () => {
    const mappings = Object.values(
      propertiesOf(template, 'AWS::Lambda::EventSourceMapping'),
    ).filter((m) => same(m.FunctionName, { Ref: functionId }));
    expect(mappings).toHaveLength(1);
    return mappings[0] ?? {};
  };
  /** Statements of the dispatcher's role, keyed by the resource they apply to. */
  const statementsOn = (resource: unknown) =>
    statementsOf(template, roleId).filter((st) =>
      asList(st.Resource).some((r) => same(exportedValue(ledger, r), resource)),
    );
  const alarmOn = (queueLogicalId: string) => {
    const alarms = Object.values(propertiesOf(template, 'AWS::CloudWatch::Alarm')).filter((a) =>
      (a.Dimensions as { Value: unknown }[] | undefined)?.some((d) =>
        same(exportedValue(ledger, d.Value), { 'Fn::GetAtt': [queueLogicalId, 'QueueName'] }),
      ),
    );
    expect(alarms).toHaveLength(1);
    return alarms[0] ?? {};
  };

  it('runs on Node.js 22, arm64, 512 MB, 30 s, ESM handler, own log group', () => {
    expect(dispatcher()).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 30,
      Handler: 'index.handler',
    });
    const ref = (dispatcher().LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
    expect(propertiesOf(template, 'AWS::Logs::LogGroup')[ref]).toEqual({ RetentionInDays: 30 });
  });

  it('gets exactly TABLE_NAME, the two queue URLs and INTAKE_STRANDED_AFTER_SECONDS', () => {
    const vars = (dispatcher().Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(vars).sort()).toEqual(
      [
        'CREDIT_INTAKE_QUEUE_URL',
        'EXPORT_JOBS_QUEUE_URL',
        'INTAKE_STRANDED_AFTER_SECONDS',
        'TABLE_NAME',
      ].sort(),
    );
    // The CDK context's default (intakeStrandedAfterSeconds, docs/deployment.md).
    expect(vars.INTAKE_STRANDED_AFTER_SECONDS).toBe('60');
    expect(exportedValue(ledger, vars.TABLE_NAME)).toEqual({ Ref: tableId });
    expect(exportedValue(ledger, vars.EXPORT_JOBS_QUEUE_URL)).toEqual({ Ref: queueId });
    expect(exportedValue(ledger, vars.CREDIT_INTAKE_QUEUE_URL)).toEqual({ Ref: intakeId });
  });

  it('reads the table stream from the oldest record, in order, reporting failed records', () => {
    const m = mapping();
    expect(exportedValue(ledger, m.EventSourceArn)).toEqual({
      'Fn::GetAtt': [tableId, 'StreamArn'],
    });
    expect(m).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: false,
      ParallelizationFactor: 1,
      BatchSize: 25,
    });
    expect(m.Enabled).not.toBe(false);
  });

  it('retries without a count limit until the record is 12 h old, then reports to outbox-dispatch-dlq', () => {
    const m = mapping();
    expect(m.MaximumRetryAttempts).toBe(-1);
    expect(m.MaximumRecordAgeInSeconds).toBe(12 * 3600);
    // Below the stream's 24-hour retention, so Lambda gives up before the record disappears.
    expect(m.MaximumRecordAgeInSeconds as number).toBeLessThan(24 * 3600);
    const destination = (m.DestinationConfig as { OnFailure: { Destination: unknown } }).OnFailure
      .Destination;
    expect(exportedValue(ledger, destination)).toEqual(arnOf(dispatchDlqId));
  });

  it('is only invoked for INSERTs of outbox items and of pending credits (§24)', () => {
    const filters = (m: Record<string, unknown>) =>
      (m.FilterCriteria as { Filters: { Pattern: string }[] }).Filters.map((f) =>
        JSON.parse(f.Pattern),
      );
    expect(filters(mapping())).toEqual([
      { eventName: ['INSERT'], dynamodb: { NewImage: { kind: { S: ['outbox'] } } } },
      { eventName: ['INSERT'], dynamodb: { NewImage: { kind: { S: [PENDING_CREDIT_KIND] } } } },
    ]);
    expect(PENDING_CREDIT_KIND).toBe('pending-credit');
  });

  it('may send to credit-intake, nothing else there', () => {
    const send = statementsOn(arnOf(intakeId));
    expect(send).toHaveLength(1);
    expect(send[0]?.Sid).toBe('CreditIntakeSend');
    expect(asList(send[0]?.Action ?? [])).toEqual(['sqs:SendMessage']);
  });

  it('may send only to export-jobs, and only it sends there', () => {
    const send = statementsOn(arnOf(queueId));
    expect(send).toHaveLength(1);
    expect(send[0]?.Effect).toBe('Allow');
    expect(asList(send[0]?.Action ?? [])).toEqual(['sqs:SendMessage']);
    // The export worker consumes export-jobs (its event source); nobody else touches it.
    for (const statement of statementsNotOf(template, roleId)) {
      for (const resource of asList(statement.Resource)) {
        if (JSON.stringify(exportedValue(ledger, resource)) !== JSON.stringify(arnOf(queueId))) {
          continue;
        }
        expect(asList(statement.Action)).not.toContain('sqs:SendMessage');
        expect(asList(statement.Action)).toContain('sqs:ReceiveMessage');
      }
    }
  });

  it('may only UpdateItem on the table ARN (no index, no other item action)', () => {
    const table = statementsOn(arnOf(tableId));
    expect(table).toHaveLength(1);
    expect(asList(table[0]?.Action ?? [])).toEqual(['dynamodb:UpdateItem']);
  });

  it('has exactly: stream read on the stream ARN, ListStreams, send to export-jobs, credit-intake and its DLQ, UpdateItem', () => {
    const imported = (value: unknown) => importOf(ledger, value);
    expectRolePolicy(ledger, ledger.stacks.stateless.outboxDispatcher.function, [
      // SqsDlq: how Lambda writes the on-failure record, with the function's role.
      {
        Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
        Resource: imported(arnOf(dispatchDlqId)),
      },
      // No resource-level permissions exist for ListStreams; it returns stream ARNs, no data.
      { Action: 'dynamodb:ListStreams', Resource: '*' },
      {
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        Resource: imported({ 'Fn::GetAtt': [tableId, 'StreamArn'] }),
      },
      { Sid: 'ExportJobsSend', Action: 'sqs:SendMessage', Resource: imported(arnOf(queueId)) },
      {
        Sid: 'CreditIntakeSend',
        Action: 'sqs:SendMessage',
        Resource: imported(arnOf(intakeId)),
      },
      {
        Sid: 'OutboxMarkDispatched',
        Action: 'dynamodb:UpdateItem',
        Resource: imported(arnOf(tableId)),
      },
    ]);
  });

  it('alarms when export-jobs-dlq or outbox-dispatch-dlq holds a message', () => {
    for (const id of [dlqId, dispatchDlqId]) {
      const alarm = alarmOn(id);
      expect(alarm).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Statistic: 'Maximum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      const description = alarm.AlarmDescription as string;
      expect(description.length).toBeLessThanOrEqual(1024);
      expect(description).toContain('executionId');
      expect(alarm.AlarmActions).toEqual([
        { Ref: logicalIdOf(ledger.stacks.stateless.operations.topic) },
      ]);
    }
    expect(alarmOn(dlqId).AlarmDescription).toContain('export-jobs-dlq');
    expect(alarmOn(dlqId).AlarmDescription).toContain('docs/alarms.md#export-jobs-dlq-not-empty');
    expect(alarmOn(dispatchDlqId).AlarmDescription).toContain('outbox-dispatch-dlq');
    expect(alarmOn(dispatchDlqId).AlarmDescription).toContain(
      'docs/alarms.md#outbox-dispatch-dlq-not-empty',
    );
    const { alarms } = ledger.stacks.stateless;
    for (const [slug, queueId] of [
      ['export-jobs-dlq-not-empty', dlqId],
      ['outbox-dispatch-dlq-not-empty', dispatchDlqId],
    ] as const) {
      const typed = propertiesOfId(template, 'AWS::CloudWatch::Alarm', logicalIdOf(alarms[slug]));
      expect(typed, slug).toEqual(alarmOn(queueId));
    }
  });

  it('alarms when the dispatcher falls 10 minutes behind the stream', () => {
    const alarm = propertiesOfId(
      template,
      'AWS::CloudWatch::Alarm',
      logicalIdOf(ledger.stacks.stateless.alarms['outbox-dispatcher-behind']),
    );
    expect(alarm).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId } }],
      Statistic: 'Maximum',
      Threshold: 600_000,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect((alarm.AlarmDescription as string).length).toBeLessThanOrEqual(1024);
  });

  it('keeps the alarms in the stateless stack', () => {
    // 3 DLQs, iterator age, 3 x (errors, throttles), API 5xx, table throttles and system errors,
    // storage throttles, storage validation, export worker and sweeper errors, sweeper behind,
    // overdue executions, overdue gaps, the journal's and the reconciler's: one per catalogued
    // slug, see alarms.test.ts; and webhooks' three (WEBHOOK_ALARM_SLUGS).
    template.resourceCountIs('AWS::CloudWatch::Alarm', Object.keys(ALARM_SLUGS).length + 3);
    ledger.stateful.resourceCountIs('AWS::CloudWatch::Alarm', 0);
  });
});

describe('OutboxDispatcher: synth-time validation', () => {
  it('refuses a table without a stream', () => {
    const stack = new Stack(new App({ builtinCloudFormationValidation: false }), 'NoStream');
    const table = dynamodb.Table.fromTableName(stack, 'Table', 'ledger');
    const queue = new sqs.Queue(stack, 'Jobs');
    expect(
      () =>
        new OutboxDispatcher(stack, 'Dispatcher', {
          functionDefaults: { code: stubHandlerCode() },
          table,
          exportJobsQueue: queue,
          creditIntakeQueue: queue,
          deadLetterQueue: queue,
        }),
    ).toThrow(/needs a table with a stream/);
  });
});
