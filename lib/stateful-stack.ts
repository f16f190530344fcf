import { CfnOutput, type Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { LedgerEventQueues } from './constructs/ledger-event-queues';
import { LedgerTable } from './constructs/ledger-table';

export interface StatefulStackProps extends StackProps {
  /**
   * DynamoDB deletion protection on the ledger table. Also decides what happens to the
   * ledger-events queues when they leave the stack: retained while protected, deleted otherwise
   * (their names are fixed, so a retained queue would block redeploying a throwaway stage).
   * @default true
   */
  readonly deletionProtection?: boolean;

  /**
   * Prepended to the queue names (`<prefix>ledger-events`, `<prefix>ledger-events-dlq`).
   * @default '' (no prefix)
   */
  readonly queueNamePrefix?: string;

  /**
   * Timeout of the function that consumes `ledger-events`; the queue's visibility timeout is
   * derived from it. Pass the same value to the stateless stack.
   * @default EVENTS_CONSUMER_TIMEOUT (30 s)
   */
  readonly eventsConsumerTimeout?: Duration;

  /**
   * Visibility timeout of `ledger-events`; at least 6 × `eventsConsumerTimeout` (synth fails
   * otherwise).
   * @default 6 × eventsConsumerTimeout
   */
  readonly eventsVisibilityTimeout?: Duration;
}

/**
 * Data resources that must outlive any deployment of the code: deployed rarely, retained on
 * delete. Queues and other durable resources added by later issues belong here too.
 */
export class StatefulStack extends Stack {
  /** The single ledger table (pk/sk, TTL `expiresAt`, stream NEW_IMAGE). */
  readonly table: dynamodb.ITable;
  /** `ledger-events` and its DLQ. */
  readonly eventQueues: LedgerEventQueues;

  constructor(scope: Construct, id: string, props: StatefulStackProps = {}) {
    super(scope, id, props);
    const deletionProtection = props.deletionProtection ?? true;

    const ledgerTable = new LedgerTable(this, 'Ledger', { deletionProtection });
    this.table = ledgerTable.table;

    this.eventQueues = new LedgerEventQueues(this, 'LedgerEvents', {
      namePrefix: props.queueNamePrefix,
      consumerTimeout: props.eventsConsumerTimeout,
      visibilityTimeout: props.eventsVisibilityTimeout,
      removalPolicy: deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    new CfnOutput(this, 'TableName', {
      description: 'Name of the ledger DynamoDB table',
      value: this.table.tableName,
    });
    new CfnOutput(this, 'EventsQueueUrl', {
      description: 'URL of the ledger-events SQS queue (producers send CloudEvents here)',
      value: this.eventQueues.queue.queueUrl,
    });
    new CfnOutput(this, 'EventsDeadLetterQueueUrl', {
      description: 'URL of the ledger-events-dlq SQS queue (dead-lettered ledger events)',
      value: this.eventQueues.deadLetterQueue.queueUrl,
    });
  }
}
