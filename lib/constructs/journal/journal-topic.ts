import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { JOURNAL_TOPIC_NAME } from '../../../functions/contract/journal';

export interface JournalTopicProps {
  /**
   * Prepended to the topic name, e.g. `prod-` gives `prod-ledger-journal`.
   * @default '' (`ledger-journal`)
   */
  readonly namePrefix?: string;

  /**
   * What happens to the topic's key when it leaves the stack (the topic holds no messages).
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** What the stateless stack needs of the topic: where to publish and the key to encrypt with. */
export interface JournalTopicRef {
  readonly topic: sns.ITopic;
  readonly key: kms.IKey;
}

/**
 * The journal topic (docs/contract.md §15): a standard SNS topic of `ledger.journal.v1`
 * CloudEvents, one per record, published at least once by the journal projector. An
 * operator-internal integration topic, not per tenant: subscribers are the deployment's own
 * downstream systems (docs/deployment.md "Journal events" shows an SQS subscription with raw
 * message delivery).
 *
 * Encrypted at rest with a customer-managed key (rotated yearly): the projector's role gets
 * `kms:GenerateDataKey` and `kms:Decrypt` on it; SNS decrypts for delivery itself, so a
 * subscribed queue needs nothing on this key (an encrypted queue lets `sns.amazonaws.com` use
 * its own key). TLS only.
 */
export class JournalTopic extends Construct implements JournalTopicRef {
  readonly topic: sns.Topic;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: JournalTopicProps = {}) {
    super(scope, id);
    const topicName = `${props.namePrefix ?? ''}${JOURNAL_TOPIC_NAME}`;
    this.key = new kms.Key(this, 'Key', {
      description: `Encrypts the ${topicName} SNS topic (journal events)`,
      enableKeyRotation: true,
      // Only messages in flight depend on it; the table is the record.
      pendingWindow: Duration.days(7),
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.topic = new sns.Topic(this, 'Topic', {
      topicName,
      displayName: 'idempotent-ledger journal (ledger.journal.v1)',
      masterKey: this.key,
      enforceSSL: true,
    });
  }
}
