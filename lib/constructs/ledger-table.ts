import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TTL_ATTRIBUTE } from '../../functions/store/keys';

export interface LedgerTableProps {
  /**
   * Refuse `DeleteTable` calls (console, SDK, CloudFormation) while enabled.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/**
 * The single-table store: accounts, ledger entries, idempotency and inbox records.
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
      // NEW_IMAGE feeds the outbox dispatcher (lib/constructs/outbox-dispatcher.ts).
      stream: dynamodb.StreamViewType.NEW_IMAGE,
    });
  }
}
