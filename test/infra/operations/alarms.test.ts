/**
 * The alarm topic, every alarm (metric, dimensions, threshold, comparison, periods, actions,
 * description with its runbook link), the runbook itself, and the operations dashboard.
 * Expected values are written out here rather than read from lib/ on purpose.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS, METRICS_NAMESPACE } from '../../../functions/domain/shared/metrics';
import { POISON_CODES } from '../../../functions/handlers/events/poison';
import { ALARM_SLUGS } from '../../../lib/alarm-catalog';
import { WEBHOOK_ALARM_SLUGS } from '../../../lib/constructs/webhooks/webhook-delivery';

/** Every alarm of the stacks: the service's catalogue and webhooks' own (docs/alarms.md). */
const EVERY_SLUG = [...Object.values(ALARM_SLUGS), ...Object.values(WEBHOOK_ALARM_SLUGS)];

import { LEDGER_METRICS_NAMESPACE, SERVICE_NAMES } from '../../../lib/service-metrics';
import {
  dashboardBodyOf,
  exportedValue,
  logicalIdOf,
  onlyLogicalId,
  propertiesOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

const REPO = resolve(import.meta.dirname, '../../..');
const RUNBOOK = readFileSync(resolve(REPO, 'docs/alarms.md'), 'utf8');

type Alarm = Record<string, unknown>;
type MetricStat = {
  Id: string;
  Expression?: string;
  ReturnData?: boolean;
  MetricStat?: {
    Metric: {
      Namespace: string;
      MetricName: string;
      Dimensions: { Name: string; Value: unknown }[];
    };
    Period: number;
    Stat: string;
  };
};

/** GitHub's anchor for a Markdown heading. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

describe('alarms (default config)', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let topic: { Ref: string };
  let byName: Map<string, Alarm>;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateless;
    topic = { Ref: logicalIdOf(ledger.stacks.stateless.operations.topic) };
    byName = new Map(
      Object.values(propertiesOf(template, 'AWS::CloudWatch::Alarm')).map((a) => [
        a.AlarmName as string,
        a,
      ]),
    );
  }, SYNTH_HOOK_TIMEOUT_MS);

  const alarm = (slug: string): Alarm => {
    const found = byName.get(`idempotent-ledger-dev-${slug}`);
    if (!found) throw new Error(`no alarm ${slug}; have ${[...byName.keys()].join(', ')}`);
    return found;
  };
  const dimensionsOf = (a: Alarm) =>
    Object.fromEntries(
      (a.Dimensions as { Name: string; Value: unknown }[]).map((d) => [
        d.Name,
        exportedValue(ledger, d.Value),
      ]),
    );
  const fnRef = (fn: Parameters<typeof logicalIdOf>[0]) => ({ Ref: logicalIdOf(fn) });
  const queueName = (queue: Parameters<typeof logicalIdOf>[0]) => ({
    'Fn::GetAtt': [logicalIdOf(queue), 'QueueName'],
  });

  /** What every alarm shares: 1 of 1 period, >= threshold, missing data OK, topic on both edges. */
  const HOUSE_STYLE = {
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    EvaluationPeriods: 1,
    DatapointsToAlarm: 1,
    TreatMissingData: 'notBreaching',
  };

  it('has exactly the catalogued alarms (39), uniquely named, all in the stateless stack', () => {
    expect([...byName.keys()].sort()).toEqual(
      EVERY_SLUG.map((slug) => `idempotent-ledger-dev-${slug}`).sort(),
    );
    expect(byName.size).toBe(39);
    ledger.stateful.resourceCountIs('AWS::CloudWatch::Alarm', 0);
  });

  it('gives every alarm the house style, the topic on ALARM and OK, and a runbook link', () => {
    for (const slug of EVERY_SLUG) {
      const a = alarm(slug);
      // The sustained alarms (docs/contract.md §24, §31: over 60 s for 5 minutes), see
      // credit-intake.test.ts: the lag, emitted only while a credit waits, in 5 of 6 minutes.
      const sustained: Record<string, number> = {
        [ALARM_SLUGS.creditIntakeLag]: 6,
        [ALARM_SLUGS.creditIntakeQueueAge]: 5,
      };
      const window = sustained[slug];
      const style =
        window === undefined
          ? HOUSE_STYLE
          : {
              ...HOUSE_STYLE,
              ComparisonOperator: 'GreaterThanThreshold',
              EvaluationPeriods: window,
              DatapointsToAlarm: 5,
            };
      expect(a, slug).toMatchObject(style);
      expect(a.AlarmActions, slug).toEqual([topic]);
      expect(a.OKActions, slug).toEqual([topic]);
      const description = a.AlarmDescription as string;
      expect(description.length, slug).toBeLessThanOrEqual(1024);
      expect(description.endsWith(`Runbook: docs/alarms.md#${slug}`), slug).toBe(true);
      // What it means and the first thing to do, not just a name.
      expect(description.length, slug).toBeGreaterThan(200);
      expect(description, slug).toMatch(/First:|Read them|Check|fix the cause/);
    }
  });

  it('alarms on each dead-letter queue at the first visible message (1-minute maximum)', () => {
    const { eventQueues, exportJobQueues, outboxDispatchDeadLetterQueue } = ledger.stacks.stateful;
    for (const [slug, queue] of [
      [ALARM_SLUGS.eventsDeadLetters, eventQueues.deadLetterQueue],
      [ALARM_SLUGS.exportJobsDeadLetters, exportJobQueues.deadLetterQueue],
      [ALARM_SLUGS.outboxDispatchDeadLetters, outboxDispatchDeadLetterQueue],
    ] as const) {
      const a = alarm(slug);
      expect(a, slug).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Statistic: 'Maximum',
        Period: 60,
        Threshold: 1,
      });
      expect(dimensionsOf(a), slug).toEqual({ QueueName: queueName(queue) });
    }
  });

  it('alarms when the dispatcher is 10 minutes behind the stream (5-minute maximum)', () => {
    const a = alarm(ALARM_SLUGS.outboxIteratorAge);
    expect(a).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 600_000,
    });
    expect(dimensionsOf(a)).toEqual({
      FunctionName: fnRef(ledger.stacks.stateless.outboxDispatcher.function),
    });
  });

  it('alarms on any Errors or Throttles of each function (5-minute sum >= 1)', () => {
    const { httpFunction, eventsConsumer, outboxDispatcher } = ledger.stacks.stateless;
    for (const [errors, throttles, fn] of [
      [ALARM_SLUGS.httpErrors, ALARM_SLUGS.httpThrottles, httpFunction],
      [ALARM_SLUGS.eventsErrors, ALARM_SLUGS.eventsThrottles, eventsConsumer.function],
      [ALARM_SLUGS.dispatcherErrors, ALARM_SLUGS.dispatcherThrottles, outboxDispatcher.function],
    ] as const) {
      for (const [slug, metricName] of [
        [errors, 'Errors'],
        [throttles, 'Throttles'],
      ] as const) {
        const a = alarm(slug);
        expect(a, slug).toMatchObject({
          Namespace: 'AWS/Lambda',
          MetricName: metricName,
          Statistic: 'Sum',
          Period: 300,
          Threshold: 1,
        });
        expect(dimensionsOf(a), slug).toEqual({ FunctionName: fnRef(fn) });
      }
    }
  });

  it('alarms on 5 or more HTTP API 5xx in 5 minutes, by ApiId and the $default stage', () => {
    const a = alarm(ALARM_SLUGS.api5xx);
    expect(a).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 5,
    });
    expect(dimensionsOf(a)).toEqual({
      ApiId: { Ref: onlyLogicalId(template, 'AWS::ApiGatewayV2::Api') },
      Stage: '$default',
    });
  });

  it('alarms on any DynamoDB ThrottledRequests or SystemErrors across the four operations, gaps filled with 0', () => {
    const tableId = logicalIdOf(ledger.stacks.stateful.table);
    for (const [slug, metricName] of [
      [ALARM_SLUGS.tableThrottles, 'ThrottledRequests'],
      [ALARM_SLUGS.tableSystemErrors, 'SystemErrors'],
    ] as const) {
      const a = alarm(slug);
      expect(a.Threshold, slug).toBe(1);
      expect(a.MetricName, slug).toBeUndefined();
      const metrics = a.Metrics as MetricStat[];
      const [expression, ...inputs] = metrics;
      expect(expression?.Expression, slug).toBe(
        'FILL(getItem, 0) + FILL(query, 0) + FILL(transactWriteItems, 0) + FILL(updateItem, 0)',
      );
      expect(expression?.ReturnData, slug).toBe(true);
      expect(
        inputs.map((m) => ({
          id: m.Id,
          returned: m.ReturnData,
          namespace: m.MetricStat?.Metric.Namespace,
          name: m.MetricStat?.Metric.MetricName,
          stat: m.MetricStat?.Stat,
          period: m.MetricStat?.Period,
          dimensions: Object.fromEntries(
            (m.MetricStat?.Metric.Dimensions ?? []).map((d) => [
              d.Name,
              exportedValue(ledger, d.Value),
            ]),
          ),
        })),
        slug,
      ).toEqual(
        [
          ['getItem', 'GetItem'],
          ['query', 'Query'],
          ['transactWriteItems', 'TransactWriteItems'],
          ['updateItem', 'UpdateItem'],
        ].map(([id, operation]) => ({
          id,
          returned: false,
          namespace: 'AWS/DynamoDB',
          name: metricName,
          stat: 'Sum',
          period: 300,
          dimensions: { TableName: { Ref: tableId }, Operation: operation },
        })),
      );
    }
  });

  it('alarms on 10 or more StorageThrottle (EMF) across ledger-http, ledger-events, ledger-sweeper, the journal projector and the folder in 5 minutes', () => {
    const a = alarm(ALARM_SLUGS.storageThrottle);
    expect(a.Threshold).toBe(10);
    const [expression, ...inputs] = a.Metrics as MetricStat[];
    expect(expression?.Expression).toBe(
      'FILL(http, 0) + FILL(events, 0) + FILL(sweeper, 0) + FILL(journal, 0) + FILL(creditIntake, 0)',
    );
    expect(
      inputs.map((m) => [
        m.Id,
        m.MetricStat?.Metric.Namespace,
        m.MetricStat?.Metric.MetricName,
        m.MetricStat?.Metric.Dimensions,
        m.MetricStat?.Stat,
        m.MetricStat?.Period,
      ]),
    ).toEqual([
      [
        'http',
        'IdempotentLedger',
        'StorageThrottle',
        [{ Name: 'service', Value: 'ledger-http' }],
        'Sum',
        300,
      ],
      [
        'events',
        'IdempotentLedger',
        'StorageThrottle',
        [{ Name: 'service', Value: 'ledger-events' }],
        'Sum',
        300,
      ],
      [
        'sweeper',
        'IdempotentLedger',
        'StorageThrottle',
        [{ Name: 'service', Value: 'ledger-sweeper' }],
        'Sum',
        300,
      ],
      [
        'journal',
        'IdempotentLedger',
        'StorageThrottle',
        [{ Name: 'service', Value: 'ledger-journal-projector' }],
        'Sum',
        300,
      ],
      [
        'creditIntake',
        'IdempotentLedger',
        'StorageThrottle',
        [{ Name: 'service', Value: 'ledger-credit-intake' }],
        'Sum',
        300,
      ],
    ]);
  });

  it('alarms on the journal: iterator age of 5 minutes, the first version gap, the first publish failure, errors (docs/contract.md §15)', () => {
    const { journalProjector } = ledger.stacks.stateless;
    const fn = ledger.stacks.stateless.resolve(journalProjector.function.functionName);
    expect(alarm(ALARM_SLUGS.journalBehind)).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Statistic: 'Maximum',
      Threshold: 300_000,
      Dimensions: [{ Name: 'FunctionName', Value: fn }],
    });
    for (const [slug, metric] of [
      [ALARM_SLUGS.journalVersionGap, 'JournalVersionGap'],
      [ALARM_SLUGS.journalPublishFailures, 'JournalPublishFailure'],
      [ALARM_SLUGS.daySumsFailures, 'EffectiveDaySumsFailure'],
    ] as const) {
      const a = alarm(slug);
      expect(a.Threshold, slug).toBe(1);
      expect(
        (a.Metrics as MetricStat[]).map((m) => m.MetricStat),
        slug,
      ).toEqual([
        {
          Metric: {
            Namespace: 'IdempotentLedger',
            MetricName: metric,
            Dimensions: [{ Name: 'service', Value: 'ledger-journal-projector' }],
          },
          Stat: 'Sum',
          Period: 300,
        },
      ]);
    }
    expect(alarm(ALARM_SLUGS.journalErrors)).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: fn }],
    });
  });

  it('alarms on the first StorageValidationError (EMF) of ledger-events: a validated event DynamoDB refused', () => {
    const a = alarm(ALARM_SLUGS.storageValidation);
    expect(a.Threshold).toBe(1);
    const [only, ...more] = a.Metrics as MetricStat[];
    expect(more).toEqual([]);
    expect(only?.MetricStat).toEqual({
      Metric: {
        Namespace: 'IdempotentLedger',
        MetricName: 'StorageValidationError',
        Dimensions: [{ Name: 'service', Value: 'ledger-events' }],
      },
      Stat: 'Sum',
      Period: 300,
    });
  });

  it('alarms on sweeper errors and on an expired hold waiting 180 s or more (oldest due, max)', () => {
    expect(alarm(ALARM_SLUGS.sweeperErrors)).toMatchObject({
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Threshold: 1,
    });
    const behind = alarm(ALARM_SLUGS.sweeperBehind);
    expect(behind).toMatchObject({
      Threshold: 180,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const [gauge] = behind.Metrics as MetricStat[];
    expect(gauge?.MetricStat).toEqual({
      Metric: {
        Namespace: 'IdempotentLedger',
        MetricName: 'SweepOldestDueAgeSeconds',
        Dimensions: [
          { Name: 'kind', Value: 'hold' },
          { Name: 'service', Value: 'ledger-sweeper' },
        ],
      },
      Period: 300,
      Stat: 'Maximum',
    });
  });

  it('publishes to a topic encrypted with its own rotated KMS key that CloudWatch may use for this topic only', () => {
    const topicId = topic.Ref;
    const keyId = onlyLogicalId(template, 'AWS::KMS::Key');
    expect(propertiesOfId(template, 'AWS::SNS::Topic', topicId)).toMatchObject({
      TopicName: 'idempotent-ledger-dev-alarms',
      KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    const key = propertiesOfId(template, 'AWS::KMS::Key', keyId);
    expect(key.EnableKeyRotation).toBe(true);
    const statements = (key.KeyPolicy as { Statement: Record<string, unknown>[] }).Statement;
    const forCloudWatch = statements.filter(
      (s) =>
        JSON.stringify(s.Principal) === JSON.stringify({ Service: 'cloudwatch.amazonaws.com' }),
    );
    expect(forCloudWatch).toHaveLength(1);
    expect(forCloudWatch[0]).toMatchObject({
      Effect: 'Allow',
      Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
    });
    const condition = JSON.stringify(forCloudWatch[0]?.Condition);
    expect(condition).toContain('kms:EncryptionContext:aws:sns:topicArn');
    expect(condition).toContain(':idempotent-ledger-dev-alarms');
  });

  it('allows only TLS, and sns:Publish for CloudWatch alarms of this account and region', () => {
    const policy = Object.values(propertiesOf(template, 'AWS::SNS::TopicPolicy'))[0] ?? {};
    expect(policy.Topics).toEqual([topic]);
    const statements = (policy.PolicyDocument as { Statement: Record<string, unknown>[] })
      .Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    const allow = statements.find((s) => s.Effect === 'Allow');
    expect(allow).toMatchObject({
      Action: 'sns:Publish',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Resource: topic,
    });
    expect(JSON.stringify(allow?.Condition)).toMatch(
      /"ArnLike".*aws:SourceArn.*:cloudwatch:.*:alarm:\*/,
    );
  });

  it('has no subscription unless alarmEmail is set, and outputs the topic ARN', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    template.hasOutput('AlarmTopicArn', { Value: topic });
  });
});

describe('alarms (configured)', () => {
  let template: Template;

  beforeAll(() => {
    template = synthLedger({
      stage: 'prod',
      alarmEmail: 'oncall@example.com',
      api5xxThreshold: '25',
    }).stateless;
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('subscribes alarmEmail to the topic by e-mail', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
      TopicArn: { Ref: onlyLogicalId(template, 'AWS::SNS::Topic') },
    });
  });

  it('takes the API 5xx threshold from api5xxThreshold and names everything after the stage', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'idempotent-ledger-prod-api-5xx-responses',
      MetricName: '5xx',
      Threshold: 25,
    });
    template.hasResourceProperties('AWS::SNS::Topic', {
      TopicName: 'idempotent-ledger-prod-alarms',
    });
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardName: 'idempotent-ledger-prod',
    });
  });
});

describe('docs/alarms.md (the runbook the descriptions link to)', () => {
  const headings = [...RUNBOOK.matchAll(/^## (.+)$/gm)].map((m) => anchorOf(m[1] ?? ''));

  it('has a section, anchored by the slug, for every alarm', () => {
    for (const slug of EVERY_SLUG) expect(headings, slug).toContain(slug);
  });

  it('says in each section what it means, likely causes, what to do first and where to look', () => {
    for (const slug of EVERY_SLUG) {
      const start = RUNBOOK.indexOf(`## ${slug}`);
      const end = RUNBOOK.indexOf('\n## ', start + 1);
      const section = RUNBOOK.slice(start, end === -1 ? undefined : end);
      for (const part of ['What it means', 'Likely causes', 'What to do first', 'Where to look']) {
        expect(section, `${slug}: ${part}`).toContain(part);
      }
    }
  });
});

describe('service metric names and dimensions', () => {
  it('uses the namespace the functions publish to', () => {
    expect(LEDGER_METRICS_NAMESPACE).toBe(METRICS_NAMESPACE);
  });

  it('uses the service names the handlers pass to Powertools', () => {
    // Handlers name their service through the shared SERVICE_NAMES constant.
    const serviceOf = (handler: string) => {
      const key = /lambdaTelemetry\(SERVICE_NAMES\.(\w+)\)/.exec(
        readFileSync(resolve(REPO, handler), 'utf8'),
      )?.[1];
      return key ? SERVICE_NAMES[key as keyof typeof SERVICE_NAMES] : undefined;
    };
    expect(serviceOf('functions/handlers/http/handler.ts')).toBe(SERVICE_NAMES.http);
    expect(serviceOf('functions/handlers/events/handler.ts')).toBe(SERVICE_NAMES.events);
    expect(serviceOf('functions/handlers/dispatcher/handler.ts')).toBe(SERVICE_NAMES.dispatcher);
    expect(serviceOf('functions/handlers/export-worker/handler.ts')).toBe(
      SERVICE_NAMES.exportWorker,
    );
    expect(serviceOf('functions/handlers/sweeper/handler.ts')).toBe(SERVICE_NAMES.sweeper);
    expect(serviceOf('functions/handlers/journal-projector/handler.ts')).toBe(
      SERVICE_NAMES.journalProjector,
    );
    expect(serviceOf('functions/handlers/credit-intake/handler.ts')).toBe(
      SERVICE_NAMES.creditIntake,
    );
  });
});

describe('operations dashboard', () => {
  let ledger: SynthesizedLedger;
  let dashboardId: string;
  let widgets: { type: string; properties: Record<string, unknown> }[];
  let metrics: unknown[][];

  beforeAll(() => {
    ledger = synthLedger();
    dashboardId = onlyLogicalId(ledger.stateless, 'AWS::CloudWatch::Dashboard');
    widgets = dashboardBodyOf(
      propertiesOfId(ledger.stateless, 'AWS::CloudWatch::Dashboard', dashboardId),
    ).widgets;
    metrics = widgets.flatMap((w) => (w.properties.metrics as unknown[][] | undefined) ?? []);
  }, SYNTH_HOOK_TIMEOUT_MS);

  /** `[namespace, name, dim, value, dim, value, …, options]` rows of the graphs. */
  const rows = (namespace: string, name: string) =>
    metrics.filter((m) => m[0] === namespace && m[1] === name);
  const dimensionsOfRow = (row: unknown[]) => {
    const pairs = row.slice(2).filter((x) => typeof x === 'string') as string[];
    const result: Record<string, string> = {};
    for (let i = 0; i + 1 < pairs.length; i += 2)
      result[pairs[i] as string] = pairs[i + 1] as string;
    return result;
  };

  it('is named after the stage and output with its console URL', () => {
    ledger.stateless.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardName: 'idempotent-ledger-dev',
    });
    ledger.stateless.hasOutput('DashboardName', { Value: { Ref: dashboardId } });
    const url = JSON.stringify(ledger.stateless.findOutputs('DashboardUrl'));
    expect(url).toContain('console.aws.amazon.com/cloudwatch/home?region=');
    expect(url).toContain('#dashboards:name=');
    expect(url).toContain(dashboardId);
  });

  it('starts with the status of all 39 alarms', () => {
    expect(widgets[0]?.type).toBe('alarm');
    expect(widgets[0]?.properties.alarms).toHaveLength(39);
  });

  it('graphs every service metric by the service(s) that publish it', () => {
    const expected: Record<string, string[]> = {
      [METRICS.idempotentReplay]: ['ledger-http'],
      [METRICS.idempotencyKeyReused]: ['ledger-http'],
      [METRICS.inboxDuplicate]: ['ledger-events'],
      [METRICS.ledgerEventApplied]: ['ledger-events'],
      [METRICS.ledgerEventsBatched]: ['ledger-events'],
      [METRICS.ledgerEventBatchFallback]: ['ledger-events'],
      [METRICS.sequenceGap]: ['ledger-events', 'ledger-http'],
      [METRICS.callbackApplied]: ['ledger-http'],
      [METRICS.callbackDuplicate]: ['ledger-http'],
      [METRICS.callbackStale]: ['ledger-http'],
      [METRICS.callbackSuperseded]: ['ledger-http'],
      [METRICS.signatureFailure]: ['ledger-http'],
      [METRICS.transactionConflictRetry]: [
        'ledger-credit-intake',
        'ledger-events',
        'ledger-http',
        'ledger-journal-projector',
        'ledger-sweeper',
      ],
      [METRICS.storageThrottle]: [
        'ledger-credit-intake',
        'ledger-events',
        'ledger-http',
        'ledger-journal-projector',
        'ledger-sweeper',
      ],
      [METRICS.storageValidationError]: ['ledger-events'],
      [METRICS.exportJobDispatched]: ['ledger-outbox-dispatcher'],
      [METRICS.exportJobDispatchFailure]: ['ledger-outbox-dispatcher'],
      [METRICS.exportSucceeded]: ['ledger-export-worker'],
      // One row per skip reason, one per due kind.
      [METRICS.exportSkipped]: Array(4).fill('ledger-export-worker'),
      [METRICS.exportFailed]: ['ledger-export-worker'],
      [METRICS.exportTimedOut]: ['ledger-export-worker'],
      [METRICS.sweepSettled]: ['ledger-sweeper', 'ledger-sweeper'],
      [METRICS.sweepAlreadyDone]: ['ledger-sweeper', 'ledger-sweeper'],
      [METRICS.sweepFailure]: ['ledger-sweeper', 'ledger-sweeper'],
      [METRICS.sweepOldestDueAge]: ['ledger-sweeper', 'ledger-sweeper'],
      [METRICS.journalRecordsWritten]: ['ledger-journal-projector'],
      [METRICS.journalAlreadyProjected]: ['ledger-journal-projector'],
      [METRICS.journalVersionGap]: ['ledger-journal-projector'],
      [METRICS.journalEventsPublished]: ['ledger-journal-projector'],
      [METRICS.journalPublishFailure]: ['ledger-journal-projector'],
      [METRICS.journalLag]: ['ledger-journal-projector'],
      [METRICS.daySumsFailure]: ['ledger-journal-projector'],
      [METRICS.monthsReadWhole]: ['ledger-http'],
      [METRICS.overdueGaps]: ['ledger-sweeper'],
      [METRICS.gapsWaived]: ['ledger-events'],
      [METRICS.reconciledRecords]: ['ledger-reconciler'],
      [METRICS.journalVersionGapFindings]: ['ledger-reconciler'],
      [METRICS.reconciliationMismatches]: ['ledger-reconciler'],
      [METRICS.journalHashChainBreaks]: ['ledger-reconciler'],
      [METRICS.creditIntakeLag]: ['ledger-credit-intake'],
      [METRICS.creditsPosted]: ['ledger-credit-intake'],
      [METRICS.setAsideCredits]: ['ledger-credit-intake'],
      [METRICS.creditIntakeNotified]: ['ledger-outbox-dispatcher'],
      [METRICS.webhookDelivered]: ['ledger-webhooks'],
      [METRICS.webhookAttemptFailed]: ['ledger-webhooks'],
      [METRICS.webhookDeliveryFailed]: ['ledger-webhooks'],
      [METRICS.webhookEndpointDisabled]: ['ledger-webhooks'],
    };
    // A metric added to functions/domain/shared/metrics.ts must be graphed (DeadLetter: below).
    expect(Object.keys(expected).sort()).toEqual(
      Object.values(METRICS)
        .filter((name) => name !== METRICS.deadLetter)
        .sort(),
    );
    for (const [name, services] of Object.entries(expected)) {
      const found = rows('IdempotentLedger', name).map((r) => dimensionsOfRow(r).service);
      expect(found.sort(), name).toEqual(services);
    }
  });

  it('graphs dead letters by every poison errorCode (dimensions service + errorCode)', () => {
    expect(rows('IdempotentLedger', 'DeadLetter').map(dimensionsOfRow)).toEqual(
      POISON_CODES.map((errorCode) => ({ service: 'ledger-events', errorCode })),
    );
  });

  it('graphs Lambda errors, throttles and duration for the nine functions', () => {
    for (const name of ['Errors', 'Throttles', 'Duration', 'ConcurrentExecutions']) {
      expect(rows('AWS/Lambda', name), name).toHaveLength(9);
    }
    // The outbox dispatcher's and the journal projector's.
    expect(rows('AWS/Lambda', 'IteratorAge')).toHaveLength(2);
  });

  it('graphs API requests, 4xx, 5xx and latency by ApiId and stage', () => {
    for (const name of ['Count', '4xx', '5xx', 'Latency', 'IntegrationLatency']) {
      const found = rows('AWS/ApiGateway', name);
      expect(found.length, name).toBeGreaterThan(0);
      for (const row of found) expect(dimensionsOfRow(row).Stage, name).toBe('$default');
    }
  });

  it('graphs the depth of the five DLQs, queue backlog, and DynamoDB throttles and errors per operation', () => {
    expect(rows('AWS/SQS', 'ApproximateNumberOfMessagesVisible')).toHaveLength(9);
    expect(rows('AWS/SQS', 'ApproximateAgeOfOldestMessage')).toHaveLength(4);
    for (const name of ['ThrottledRequests', 'SystemErrors']) {
      expect(
        rows('AWS/DynamoDB', name)
          .map((r) => dimensionsOfRow(r).Operation)
          .sort(),
        name,
      ).toEqual(['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem']);
    }
  });
});
