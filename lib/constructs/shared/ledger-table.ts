import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  DIRECTORY_INDEXES,
  type TableIndex,
  tableIndexes,
} from '../../../functions/dynamodb/table/indexes';
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

const ATTRIBUTE_TYPES = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
} as const;
const PROJECTIONS: Record<TableIndex['projection'], dynamodb.ProjectionType> = {
  ALL: dynamodb.ProjectionType.ALL,
  KEYS_ONLY: dynamodb.ProjectionType.KEYS_ONLY,
};

export interface LedgerTableProps {
  /**
   * Refuse `DeleteTable` calls (console, SDK, CloudFormation) while enabled.
   * @default true
   */
  readonly deletionProtection?: boolean;
  /**
   * How many of the account directory's indexes (`accounts`, `account-owners`, `account-names`,
   * in that order) the table has. CloudFormation refuses a table update that creates or deletes
   * more than one GSI, so a table deployed before the directory gains them one deploy at a time:
   * 1, then 2, then 3 (docs/deployment.md "Upgrading to the account directory").
   * @default 3 (all)
   */
  readonly accountDirectoryIndexes?: number;
}

/**
 * The single-table store: accounts, ledger entries, idempotency and inbox records, holds and
 * tasks, with the sparse indexes of functions/dynamodb/table/indexes.ts (the sweeper's due work,
 * statements' effective time, the console's account directory).
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
    const directoryIndexes = props.accountDirectoryIndexes ?? DIRECTORY_INDEXES.length;
    if (
      !Number.isInteger(directoryIndexes) ||
      directoryIndexes < 0 ||
      directoryIndexes > DIRECTORY_INDEXES.length
    ) {
      throw new Error(
        `accountDirectoryIndexes must be an integer from 0 to ${DIRECTORY_INDEXES.length}; got ${directoryIndexes}`,
      );
    }
    // The indexes from the one definition the local stack's table uses too.
    for (const index of tableIndexes(directoryIndexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: {
          name: index.partitionKey.name,
          type: ATTRIBUTE_TYPES[index.partitionKey.type],
        },
        sortKey: { name: index.sortKey.name, type: ATTRIBUTE_TYPES[index.sortKey.type] },
        projectionType: PROJECTIONS[index.projection],
      });
    }
  }
}
