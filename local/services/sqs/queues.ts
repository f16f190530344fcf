import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SetQueueAttributesCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { MAX_RECEIVE_COUNT, QUEUE_NAMES } from '../../../functions/contract/names';
import { SEARCH_QUEUE_NAMES } from '../../../functions/contract/search';
import { WEBHOOK_DLQ_NAME, WEBHOOK_QUEUE_NAME } from '../../../functions/contract/webhooks';

export interface QueueRef {
  readonly name: string;
  readonly url: string;
  readonly arn: string;
}

export interface LocalQueues {
  readonly ledgerEvents: QueueRef;
  readonly deadLetters: QueueRef;
  readonly exportJobs: QueueRef;
  readonly exportJobsDeadLetters: QueueRef;
  /** The folder's feed (docs/contract.md §24) and its DLQ. */
  readonly creditIntake: QueueRef;
  readonly creditIntakeDeadLetters: QueueRef;
  /** The search indexer's feed (docs/contract.md §34) and its DLQ. */
  readonly searchIndex: QueueRef;
  readonly searchIndexDeadLetters: QueueRef;
  /** The webhook delivery function's feed (docs/contract.md §32) and its DLQ. */
  readonly webhookDeliveries: QueueRef;
  readonly webhookDeliveriesDeadLetters: QueueRef;
}

/**
 * Creates the stack's queues when they are missing (here or on an external SQS_ENDPOINT) and
 * makes sure `ledger-events`, `export-jobs`, `credit-intake`, `search-index` and `webhook-deliveries` redrive to their DLQs after
 * MAX_RECEIVE_COUNT receives.
 * Safe to run again: existing queues and their messages are kept.
 */
export async function ensureQueues(client: SQSClient, signal?: AbortSignal): Promise<LocalQueues> {
  const deadLetters = await ensureQueue(client, QUEUE_NAMES.ledgerEventsDeadLetter, signal);
  const ledgerEvents = await ensureQueue(client, QUEUE_NAMES.ledgerEvents, signal);
  await ensureRedrivePolicy(client, ledgerEvents, deadLetters.arn, signal);
  const exportJobsDeadLetters = await ensureQueue(client, QUEUE_NAMES.exportJobsDeadLetter, signal);
  const exportJobs = await ensureQueue(client, QUEUE_NAMES.exportJobs, signal);
  await ensureRedrivePolicy(client, exportJobs, exportJobsDeadLetters.arn, signal);
  const creditIntakeDeadLetters = await ensureQueue(
    client,
    QUEUE_NAMES.creditIntakeDeadLetter,
    signal,
  );
  const creditIntake = await ensureQueue(client, QUEUE_NAMES.creditIntake, signal);
  await ensureRedrivePolicy(client, creditIntake, creditIntakeDeadLetters.arn, signal);
  const searchIndexDeadLetters = await ensureQueue(
    client,
    SEARCH_QUEUE_NAMES.searchIndexDeadLetter,
    signal,
  );
  const searchIndex = await ensureQueue(client, SEARCH_QUEUE_NAMES.searchIndex, signal);
  await ensureRedrivePolicy(client, searchIndex, searchIndexDeadLetters.arn, signal);
  const webhookDeliveriesDeadLetters = await ensureQueue(client, WEBHOOK_DLQ_NAME, signal);
  const webhookDeliveries = await ensureQueue(client, WEBHOOK_QUEUE_NAME, signal);
  await ensureRedrivePolicy(client, webhookDeliveries, webhookDeliveriesDeadLetters.arn, signal);
  return {
    ledgerEvents,
    deadLetters,
    exportJobs,
    exportJobsDeadLetters,
    creditIntake,
    creditIntakeDeadLetters,
    searchIndex,
    searchIndexDeadLetters,
    webhookDeliveries,
    webhookDeliveriesDeadLetters,
  };
}

/**
 * CreateQueue without attributes returns the existing queue's URL whatever its attributes,
 * whereas CreateQueue with attributes fails (QueueNameExists) when they differ. So: create
 * bare, then set what must be set.
 */
export async function ensureQueue(
  client: SQSClient,
  name: string,
  signal: AbortSignal | undefined,
): Promise<QueueRef> {
  const created = await client.send(new CreateQueueCommand({ QueueName: name }), {
    abortSignal: signal,
  });
  const url = created.QueueUrl;
  if (!url) throw new Error(`CreateQueue ${name} returned no QueueUrl`);
  const attributes = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    { abortSignal: signal },
  );
  const arn = attributes.Attributes?.QueueArn;
  if (!arn) throw new Error(`GetQueueAttributes ${name} returned no QueueArn`);
  return { name, url, arn };
}

async function ensureRedrivePolicy(
  client: SQSClient,
  queue: QueueRef,
  deadLetterTargetArn: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const current = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ['RedrivePolicy'] }),
    { abortSignal: signal },
  );
  if (redriveMatches(current.Attributes?.RedrivePolicy, deadLetterTargetArn)) return;
  await client.send(
    new SetQueueAttributesCommand({
      QueueUrl: queue.url,
      Attributes: {
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn, maxReceiveCount: MAX_RECEIVE_COUNT }),
      },
    }),
    { abortSignal: signal },
  );
}

function redriveMatches(policy: string | undefined, deadLetterTargetArn: string): boolean {
  if (!policy) return false;
  try {
    const parsed = JSON.parse(policy) as {
      deadLetterTargetArn?: unknown;
      maxReceiveCount?: unknown;
    };
    return (
      parsed.deadLetterTargetArn === deadLetterTargetArn &&
      Number(parsed.maxReceiveCount) === MAX_RECEIVE_COUNT
    );
  } catch {
    return false;
  }
}
