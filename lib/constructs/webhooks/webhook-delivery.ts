import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { METRICS } from '../../../functions/domain/shared/metrics';
import { assertVisibilityCoversConsumer } from '../../events-timing';
import { SERVICE_NAMES, serviceMetric } from '../../service-metrics';
import type { OperationsAlarms } from '../operations/operations-alarms';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';
import { LEDGER_WRITER_TABLE_ACTIONS } from '../shared/ledger-table';
import { WEBHOOK_DELIVERY_TIMEOUT, type WebhookResourcesRef } from './webhook-resources';

/** Alarms of webhooks (docs/alarms.md); their names follow the service's `<prefix>-<slug>`. */
export const WEBHOOK_ALARM_SLUGS = {
  failedDeliveries: 'webhook-deliveries-failed',
  queueAge: 'webhook-deliveries-behind',
  deadLetters: 'webhook-deliveries-dlq-not-empty',
} as const;

/** `webhook-deliveries-behind`: the oldest message waits longer than this (beyond backoff). */
export const WEBHOOK_QUEUE_AGE_THRESHOLD = Duration.minutes(30);

export interface WebhookDeliveryProps {
  readonly functionDefaults?: LedgerFunctionDefaults;
  readonly table: dynamodb.ITable;
  readonly resources: WebhookResourcesRef;
  /** What `loadConfig` reads in every handler; the webhook variables are added here. */
  readonly environment: Readonly<Record<string, string>>;
  /** The deployment's stage: the events' `source`. */
  readonly stage: string;
}

/**
 * The webhook delivery function (docs/contract.md §32; functions/handlers/webhooks/handler.ts):
 * no VPC, so it reaches the internet; fed by `webhook-deliveries` with partial batch responses;
 * reads and writes the table, re-queues its own wakes, opens endpoint secrets.
 */
export class WebhookDelivery extends Construct {
  readonly function: LedgerFunction;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { queues } = props.resources;
    assertVisibilityCoversConsumer(
      queues.visibilityTimeout,
      WEBHOOK_DELIVERY_TIMEOUT,
      'webhook-deliveries',
    );
    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('webhooks'),
      description: 'idempotent-ledger webhook delivery (signed HTTPS POSTs, in journal order)',
      timeout: WEBHOOK_DELIVERY_TIMEOUT,
      environment: {
        ...props.environment,
        ...webhookEnvironment(props.resources),
        STAGE: props.stage,
      },
    });
    this.function.addEventSource(
      new SqsEventSource(queues.queue, {
        batchSize: 10,
        maxConcurrency: 10,
        reportBatchItemFailures: true,
      }),
    );
    this.function.allow('WebhookTable', LEDGER_WRITER_TABLE_ACTIONS, [props.table.tableArn]);
    allowWebhookSecrets(this.function, props.resources);
    // Wakes with a delay: backoff, hand-over (SendMessage on its own queue only).
    this.function.allow('WebhookWake', ['sqs:SendMessage'], [queues.queue.queueArn]);
  }
}

/** The variables the HTTP and delivery functions read (functions/handlers/webhooks/config.ts). */
export const webhookEnvironment = (resources: WebhookResourcesRef) => ({
  WEBHOOK_QUEUE_URL: resources.queues.queue.queueUrl,
  WEBHOOK_SEALING_KEY_ARN: resources.sealingSecret.secretArn,
});

/** Reads the sealing key: the secret's value, decrypted with its key. */
export function allowWebhookSecrets(fn: LedgerFunction, resources: WebhookResourcesRef) {
  fn.allow(
    'WebhookSealingKeyRead',
    ['secretsmanager:GetSecretValue'],
    [resources.sealingSecret.secretArn],
  );
  fn.allow('WebhookSealingKeyDecrypt', ['kms:Decrypt'], [resources.key.keyArn]);
}

/**
 * What the HTTP function's webhook routes need (docs/contract.md §32): the sealing key, the
 * delivery queue for manual retries, and DELETE of the owners' endpoint items only.
 */
export function allowWebhookRoutes(
  fn: LedgerFunction,
  resources: WebhookResourcesRef,
  table: dynamodb.ITable,
) {
  allowWebhookSecrets(fn, resources);
  fn.allow('WebhookRetryQueue', ['sqs:SendMessage'], [resources.queues.queue.queueArn]);
  fn.allow('WebhookEndpointDelete', ['dynamodb:DeleteItem'], [table.tableArn], {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WEBHOOKS#*'] },
  });
}

/** The alarms of webhooks (docs/alarms.md). */
export function webhookAlarms(
  operations: OperationsAlarms,
  scope: Construct,
  resources: WebhookResourcesRef,
): cloudwatch.Alarm[] {
  const S = WEBHOOK_ALARM_SLUGS;
  return [
    operations.addAlarm(scope, 'WebhookDeliveriesFailedAlarm', {
      slug: S.failedDeliveries,
      description:
        'Webhook deliveries ran out of retries (WebhookDeliveryFailed) or an endpoint was disabled after too many failed attempts in a row (WebhookEndpointDisabled): a tenant missed events. First: GET /v1/webhook-endpoints/{id}/deliveries?status=failed names them; tell the tenant, then retry them (POST .../retry) or re-enable the endpoint.',
      metric: new cloudwatch.MathExpression({
        expression: 'failed + disabled',
        usingMetrics: {
          failed: serviceMetric(METRICS.webhookDeliveryFailed, SERVICE_NAMES.webhooks),
          disabled: serviceMetric(METRICS.webhookEndpointDisabled, SERVICE_NAMES.webhooks),
        },
        period: Duration.minutes(5),
      }),
      threshold: 1,
    }),
    operations.addAlarm(scope, 'WebhookDeliveriesBehindAlarm', {
      slug: S.queueAge,
      description: `The oldest message on webhook-deliveries is older than ${WEBHOOK_QUEUE_AGE_THRESHOLD.toMinutes()} minutes beyond its delay: deliveries are late. First: the delivery function's errors and throttles, then its log group ("webhook delivery failed").`,
      metric: resources.queues.queue.metricApproximateAgeOfOldestMessage({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: WEBHOOK_QUEUE_AGE_THRESHOLD.toSeconds(),
    }),
    operations.addAlarm(scope, 'WebhookDeadLettersAlarm', {
      slug: S.deadLetters,
      description:
        'webhook-deliveries-dlq holds messages: wakes the delivery function failed 5 times (storage errors, a bug). Deliveries of those accounts resume with their next event or a re-enable. First: find the messageId in the log group of the delivery function, fix the cause, then redrive.',
      metric: resources.queues.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
    }),
  ];
}
