/**
 * Deferred credits on AWS (docs/contract.md §24): `credit-intake` and its DLQ, the folder and its
 * event source, its role, its alarms and its dashboard graphs. Expected values are written out
 * here rather than read from lib/ on purpose (the event source's come from functions/contract).
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CREDIT_INTAKE_BATCH_SIZE,
  CREDIT_INTAKE_BATCHING_WINDOW_SECONDS,
} from '../../../functions/contract/intake';
import {
  asList,
  dashboardBodyOf,
  expectRolePolicy,
  exportedValue,
  importOf,
  logicalIdOf,
  onlyLogicalId,
  propertiesOf,
  propertiesOfId,
  roleIdOf,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  statementsNotOf,
  statementsOf,
  synthLedger,
} from '../synth';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const leadingKeys = (keys: string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': keys },
});

/** What SqsEventSource grants on the consumed queue. */
const CONSUME_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];

describe('credit-intake queues, folder and operations (default config)', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let queueId: string;
  let dlqId: string;
  let functionId: string;
  let tableId: string;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateless;
    queueId = logicalIdOf(ledger.stacks.stateful.creditIntakeQueues.queue);
    dlqId = logicalIdOf(ledger.stacks.stateful.creditIntakeQueues.deadLetterQueue);
    functionId = logicalIdOf(ledger.stacks.stateless.creditFolder.function);
    tableId = logicalIdOf(ledger.stacks.stateful.table);
  }, SYNTH_HOOK_TIMEOUT_MS);

  const queue = (id: string) => propertiesOfId(ledger.stateful, 'AWS::SQS::Queue', id);
  const folder = () => propertiesOfId(template, 'AWS::Lambda::Function', functionId);
  const mapping = () => {
    const mappings = Object.values(
      propertiesOf(template, 'AWS::Lambda::EventSourceMapping'),
    ).filter((m) => same(m.FunctionName, { Ref: functionId }));
    expect(mappings).toHaveLength(1);
    return mappings[0] ?? {};
  };
  const alarm = (slug: string) => {
    const found = Object.values(propertiesOf(template, 'AWS::CloudWatch::Alarm')).find(
      (a) => a.AlarmName === `idempotent-ledger-dev-${slug}`,
    );
    if (!found) throw new Error(`no alarm ${slug}`);
    return found;
  };

  it('names the queues <stage>-credit-intake and <stage>-credit-intake-dlq, in the stateful stack', () => {
    expect(queue(queueId).QueueName).toBe('dev-credit-intake');
    expect(queue(dlqId).QueueName).toBe('dev-credit-intake-dlq');
    template.resourceCountIs('AWS::SQS::Queue', 0);
  });

  it('encrypts both (SSE-SQS), denies non-TLS, keeps the DLQ 14 days, redrives after 5 receives', () => {
    for (const id of [queueId, dlqId]) {
      expect(queue(id).SqsManagedSseEnabled).toBe(true);
      ledger.stateful.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: [
            {
              Effect: 'Deny',
              Action: 'sqs:*',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: arnOf(id),
            },
          ],
        },
      });
    }
    expect(queue(queueId).MessageRetentionPeriod).toBe(4 * 86400);
    expect(queue(dlqId).MessageRetentionPeriod).toBe(14 * 86400);
    expect(queue(queueId).RedrivePolicy).toEqual({
      deadLetterTargetArn: arnOf(dlqId),
      maxReceiveCount: 5,
    });
    ledger.stateful.hasOutput('CreditIntakeDeadLetterQueueUrl', { Value: { Ref: dlqId } });
  });

  it('runs the folder on Node.js 22, arm64, 30 s, with a visibility of 6 x its timeout', () => {
    expect(folder()).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 30,
      Handler: 'index.handler',
    });
    expect(queue(queueId).VisibilityTimeout).toBe(180);
    const vars = (folder().Environment as { Variables: Record<string, unknown> }).Variables;
    expect(exportedValue(ledger, vars.CREDIT_INTAKE_QUEUE_URL)).toEqual({ Ref: queueId });
    expect(exportedValue(ledger, vars.TABLE_NAME)).toEqual({ Ref: tableId });
  });

  it('consumes credit-intake in batches of 10 within 1 s, at most 5 at once, partial failures', () => {
    expect(CREDIT_INTAKE_BATCH_SIZE).toBe(10);
    expect(CREDIT_INTAKE_BATCHING_WINDOW_SECONDS).toBe(1);
    const m = mapping();
    expect(m).toMatchObject({
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 1,
      ScalingConfig: { MaximumConcurrency: 5 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(exportedValue(ledger, m.EventSourceArn)).toEqual(arnOf(queueId));
  });

  it('grants the folder exactly: consume and re-queue on credit-intake, its partitions by leading key', () => {
    const imported = (id: string) => importOf(ledger, arnOf(id));
    const table = imported(tableId);
    expectRolePolicy(ledger, ledger.stacks.stateless.creditFolder.function, [
      { Action: CONSUME_ACTIONS, Resource: imported(queueId) },
      { Sid: 'CreditIntakeRequeue', Action: 'sqs:SendMessage', Resource: imported(queueId) },
      {
        Sid: 'IntakePartitions',
        Action: ['dynamodb:Query', 'dynamodb:UpdateItem'],
        Resource: table,
        Condition: leadingKeys(['INTAKE#*#*']),
      },
      {
        Sid: 'PostedPendingCreditsRemove',
        Action: 'dynamodb:DeleteItem',
        Resource: table,
        Condition: leadingKeys(['INTAKE#*#*']),
      },
      {
        Sid: 'IntakeDueMarker',
        Action: ['dynamodb:GetItem', 'dynamodb:DeleteItem'],
        Resource: table,
        Condition: leadingKeys(['INTAKE_DUE#*']),
      },
      {
        Sid: 'PostToAccount',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
        Resource: table,
        Condition: leadingKeys(['ACCOUNT#*']),
      },
      {
        Sid: 'EntryPointers',
        Action: 'dynamodb:PutItem',
        Resource: table,
        Condition: leadingKeys(['ENTRY_ID#*']),
      },
      // A credit set aside (§36): its item in its partition and its reconciler finding.
      {
        Sid: 'SetAsideCredits',
        Action: 'dynamodb:PutItem',
        Resource: table,
        Condition: leadingKeys(['INTAKE#*#*', 'RECONCILE_FINDINGS']),
      },
    ]);
  });

  it('lets only the dispatcher, the folder and the sweeper send to credit-intake, nobody to its DLQ', () => {
    const folderRole = roleIdOf(ledger.stacks.stateless.creditFolder.function);
    const dispatcherRole = roleIdOf(ledger.stacks.stateless.outboxDispatcher.function);
    const sweeperRole = roleIdOf(ledger.stacks.stateless.sweeper.function);
    for (const statement of statementsNotOf(template, folderRole)) {
      if (statement.Sid === 'CreditIntakeRequeue') {
        // The sweep queues stranded accounts again (docs/contract.md §24).
        expect(statementsOf(template, sweeperRole)).toContainEqual(statement);
        expect(asList(statement.Action)).toEqual(['sqs:SendMessage']);
        continue;
      }
      for (const resource of asList(statement.Resource)) {
        const target = exportedValue(ledger, resource);
        if (same(target, arnOf(dlqId))) throw new Error('a role names credit-intake-dlq');
        if (!same(target, arnOf(queueId))) continue;
        expect(asList(statement.Action)).toEqual(['sqs:SendMessage']);
        expect(statement.Sid).toBe('CreditIntakeSend');
        expect(statementsOf(template, dispatcherRole)).toContainEqual(statement);
      }
    }
  });

  it('alarms when the lag stays over 60 s for 5 minutes (1-minute maximum, 5 of 6)', () => {
    const lag = alarm('credit-intake-lag');
    // Emitted only while a credit waits: a minute without is not breaching (idle is OK and the
    // alarm clears once drained), and 5 of 6 lets one such minute pass without hiding a
    // stranded credit (the sweep emits each minute while it waits).
    expect(lag).toMatchObject({
      Threshold: 60,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 6,
      DatapointsToAlarm: 5,
      TreatMissingData: 'notBreaching',
    });
    expect(lag.AlarmDescription).toContain('more than 60 s, in 5 of 6 minutes');
    // The larger of the folder's and the sweep's gauges (docs/contract.md §24, §36).
    const metrics = lag.Metrics as { Expression?: string; MetricStat?: unknown }[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('MAX([folder, sweep])');
    const gauge = (service: string) => ({
      Metric: {
        Namespace: 'IdempotentLedger',
        MetricName: 'CreditIntakeLagSeconds',
        Dimensions: [{ Name: 'service', Value: service }],
      },
      Period: 60,
      Stat: 'Maximum',
    });
    const stats = metrics.filter((m) => m.MetricStat).map((m) => m.MetricStat);
    expect(stats).toEqual([gauge('ledger-credit-intake'), gauge('ledger-sweeper')]);
  });

  it("alarms when credit-intake's oldest message stays over 60 s for 5 minutes", () => {
    const age = alarm('credit-intake-queue-behind');
    expect(age).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Statistic: 'Maximum',
      Period: 60,
      Threshold: 60,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 5,
    });
    const [dimension] = age.Dimensions as { Value: unknown }[];
    expect(exportedValue(ledger, dimension?.Value)).toEqual({
      'Fn::GetAtt': [queueId, 'QueueName'],
    });
  });

  it('alarms at the first message in credit-intake-dlq, and on any folder error', () => {
    const dlq = alarm('credit-intake-dlq-not-empty');
    expect(dlq).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Statistic: 'Maximum',
      Period: 60,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const [dimension] = dlq.Dimensions as { Value: unknown }[];
    expect(exportedValue(ledger, dimension?.Value)).toEqual({
      'Fn::GetAtt': [dlqId, 'QueueName'],
    });
    expect(dlq.AlarmDescription).toContain('errorCode');
    expect(alarm('credit-intake-errors')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId } }],
      Statistic: 'Sum',
      Threshold: 1,
    });
  });

  it('alarms on any credit set aside in 5 minutes (docs/contract.md §36)', () => {
    const setAside = alarm('set-aside-credits');
    expect(setAside).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(setAside.Metrics).toEqual([
      expect.objectContaining({
        MetricStat: {
          Metric: {
            Namespace: 'IdempotentLedger',
            MetricName: 'SetAsideCredits',
            Dimensions: [{ Name: 'service', Value: 'ledger-credit-intake' }],
          },
          Stat: 'Sum',
          Period: 300,
        },
      }),
    ]);
    expect(alarm('set-aside-credits').AlarmDescription).toContain('intake resolve');
  });

  it('graphs the lag, credits posted and set aside, accounts notified, the folder and its queues', () => {
    const dashboardId = onlyLogicalId(template, 'AWS::CloudWatch::Dashboard');
    const { widgets } = dashboardBodyOf(
      propertiesOfId(template, 'AWS::CloudWatch::Dashboard', dashboardId),
    );
    const rows = widgets.flatMap(
      (w: { properties: Record<string, unknown> }) =>
        (w.properties.metrics as unknown[][] | undefined) ?? [],
    );
    const find = (namespace: string, name: string) =>
      rows.filter((r) => r[0] === namespace && r[1] === name);
    expect(find('IdempotentLedger', 'CreditIntakeLagSeconds')[0]).toEqual(
      expect.arrayContaining([
        'service',
        'ledger-credit-intake',
        expect.objectContaining({ stat: 'Maximum', period: 60 }),
      ]),
    );
    expect(find('IdempotentLedger', 'CreditsPosted')[0]).toContain('ledger-credit-intake');
    expect(find('IdempotentLedger', 'SetAsideCredits')[0]).toContain('ledger-credit-intake');
    expect(find('IdempotentLedger', 'CreditIntakeNotified')[0]).toContain(
      'ledger-outbox-dispatcher',
    );
    const text = JSON.stringify(widgets);
    for (const label of ['"credit-intake"', '"credit-intake-dlq"', '"credit-intake visible"']) {
      expect(text).toContain(label);
    }
  });
});
