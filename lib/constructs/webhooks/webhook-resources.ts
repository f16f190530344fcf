import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { WEBHOOK_DLQ_NAME, WEBHOOK_QUEUE_NAME } from '../../../functions/contract/webhooks';
import { QueueWithDeadLetter, type QueueWithDeadLetterRef } from '../shared/queue-with-dead-letter';

/**
 * Lambda timeout of the webhook delivery function: a wake delivers up to 50 events of one
 * account, each attempt at most 10 s; what is left goes back to the queue.
 */
export const WEBHOOK_DELIVERY_TIMEOUT = Duration.seconds(120);

/** The stateful part of webhooks, as the stateless stack uses it. */
export interface WebhookResourcesRef {
  /** `webhook-deliveries` (subscribed to the journal topic, raw) and its DLQ. */
  readonly queues: QueueWithDeadLetterRef;
  /** The data key that seals endpoint secrets, encrypted with {@link key}. */
  readonly sealingSecret: secretsmanager.ISecret;
  /** The customer-managed key of the sealing secret (readers need kms:Decrypt on it). */
  readonly key: kms.IKey;
}

export interface WebhookResourcesProps {
  /** The journal topic (docs/contract.md §15): its events wake deliveries. */
  readonly journalTopic: sns.ITopic;
  /** @default '' */
  readonly namePrefix?: string;
  /** @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * Webhooks' data (docs/contract.md §32): the delivery queue and its DLQ, the queue subscribed
 * to the journal topic with raw delivery (a journal or monitor event only wakes its account's
 * endpoints; what is sent is read from the table), and the sealing key of endpoint secrets: a
 * generated Secrets Manager value encrypted with a customer-managed KMS key (rotated yearly).
 */
export class WebhookResources extends Construct implements WebhookResourcesRef {
  readonly queues: QueueWithDeadLetter;
  readonly sealingSecret: secretsmanager.Secret;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: WebhookResourcesProps) {
    super(scope, id);
    const prefix = props.namePrefix ?? '';
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.queues = new QueueWithDeadLetter(this, 'Deliveries', {
      queueName: `${prefix}${WEBHOOK_QUEUE_NAME}`,
      deadLetterQueueName: `${prefix}${WEBHOOK_DLQ_NAME}`,
      visibilityTimeout: Duration.seconds(WEBHOOK_DELIVERY_TIMEOUT.toSeconds() * 6),
      removalPolicy,
    });
    props.journalTopic.addSubscription(
      new subscriptions.SqsSubscription(this.queues.queue, { rawMessageDelivery: true }),
    );
    this.key = new kms.Key(this, 'SealingKey', {
      description: 'idempotent-ledger webhook secrets: encrypts the sealing key (docs/webhooks.md)',
      enableKeyRotation: true,
      removalPolicy,
    });
    this.sealingSecret = new secretsmanager.Secret(this, 'SealingSecret', {
      description:
        'idempotent-ledger webhook sealing key: endpoint secrets are stored AES-GCM-sealed under it. Never change it: sealed secrets could not be opened.',
      encryptionKey: this.key,
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy,
    });
    Validations.of(this.sealingSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The value is the key that opens every sealed endpoint secret; a rotation Lambda would replace it and lose them all. The KMS key that encrypts it rotates yearly instead.',
    });
  }
}
