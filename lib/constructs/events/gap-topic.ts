import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { GAP_TOPIC_NAME } from '../../../functions/contract/gaps';
import type { JournalTopicRef } from '../journal/journal-topic';

export interface GapTopicProps {
  /** Prepended to the topic name, e.g. `prod-` gives `prod-ledger-gaps`. @default '' */
  readonly namePrefix?: string;
  /** What happens to the topic's key when it leaves the stack. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
}

/** What the stateless stack needs of the topic: where to publish and the key to encrypt with. */
export type GapTopicRef = JournalTopicRef;

/**
 * The gap topic (docs/contract.md §18): `ledger.gap.refetch.v1` requests, published at least
 * once by the sweeper, each with the message attribute `source` (the producer's) so a producer
 * subscribes with a filter policy to its own. A filter policy routes, it does not authorize:
 * whoever the topic policy lets subscribe can read every producer's requests (docs/deployment.md).
 * Encrypted with a customer-managed key (rotated yearly), TLS only, as the journal topic.
 */
export class GapTopic extends Construct implements GapTopicRef {
  readonly topic: sns.Topic;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: GapTopicProps = {}) {
    super(scope, id);
    const topicName = `${props.namePrefix ?? ''}${GAP_TOPIC_NAME}`;
    this.key = new kms.Key(this, 'Key', {
      description: `Encrypts the ${topicName} SNS topic (gap re-fetch requests)`,
      enableKeyRotation: true,
      pendingWindow: Duration.days(7),
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.topic = new sns.Topic(this, 'Topic', {
      topicName,
      displayName: 'idempotent-ledger gap re-fetch requests (ledger.gap.refetch.v1)',
      masterKey: this.key,
      enforceSSL: true,
    });
  }
}
