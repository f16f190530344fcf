import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { EFFECTIVE_INDEX } from '../../../functions/contract/effective-time';
import { DUE_INDEX } from '../../../functions/dynamodb/table/due-index';
import { TTL_ATTRIBUTE } from '../../../functions/dynamodb/table/keys';

/**
 * Item-level actions of a function that writes ledger transactions on the table (the HTTP
 * function, the events consumer). TransactWriteItems is authorised per item by PutItem /
 * UpdateItem / ConditionCheckItem, TransactGetItems by GetItem; Query reads by account;
 * BatchGetItem reads several items by key at once (a reversal's entry pointer with its account,
 * the accounts of a ledger transaction, docs/contract.md §16).
 * Deliberately absent: DeleteItem, Scan, BatchWriteItem, table management.
 */
export const LEDGER_WRITER_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
] as const;

export interface LedgerTableProps {
  /**
   * Refuse `DeleteTable` calls (console, SDK, CloudFormation) while enabled.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/**
 * The single-table store: accounts, ledger entries, idempotency and inbox records, holds and
 * tasks, with one sparse index of the items that fall due (the sweeper's, functions/dynamodb/table/due-index.ts).
 *
 * Uses `dynamodb.Table` (AWS::DynamoDB::Table) rather than `TableV2` (AWS::DynamoDB::GlobalTable):
 * the service is single-region, and the flat `AWS::DynamoDB::Table` shape (KeySchema,
 * TimeToLiveSpecification, PointInTimeRecoverySpecification, StreamSpecification at top level)
 * gives direct, readable assertions. Switching later means a table replacement, so decide
 * before the first production deploy.
 */
export class LedgerTable extends Construct {
  /** The ledger table. */
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: LedgerTableProps = {}) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: RemovalPolicy.RETAIN,
      // NEW_IMAGE feeds the outbox dispatcher (lib/constructs/exports/outbox-dispatcher.ts).
      stream: dynamodb.StreamViewType.NEW_IMAGE,
    });
    // Sparse: only items with something due (active holds, running executions) carry the keys.
    // ALL projects what the sweeper needs to settle an item without reading it again.
    this.table.addGlobalSecondaryIndex({
      indexName: DUE_INDEX.name,
      partitionKey: { name: DUE_INDEX.shardAttribute, type: dynamodb.AttributeType.NUMBER },
      sortKey: { name: DUE_INDEX.dueAtAttribute, type: dynamodb.AttributeType.NUMBER },
      projectionType: dynamodb.ProjectionType.ALL,
    });
    // Sparse: entries by effective time per account (docs/contract.md §26), what statements
    // page through. ALL: a statement item is the entry, read without a second request.
    this.table.addGlobalSecondaryIndex({
      indexName: EFFECTIVE_INDEX.name,
      partitionKey: { name: EFFECTIVE_INDEX.accountAttribute, type: dynamodb.AttributeType.STRING },
      sortKey: { name: EFFECTIVE_INDEX.keyAttribute, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
}
