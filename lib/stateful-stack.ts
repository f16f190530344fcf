import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { LedgerTable } from './constructs/ledger-table';

export interface StatefulStackProps extends StackProps {
  /**
   * DynamoDB deletion protection on the ledger table.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/**
 * Data resources that must outlive any deployment of the code: deployed rarely, retained on
 * delete. Queues and other durable resources added by later issues belong here too.
 */
export class StatefulStack extends Stack {
  /** The single ledger table (pk/sk, TTL `expiresAt`, stream NEW_IMAGE). */
  readonly table: dynamodb.ITable;

  constructor(scope: Construct, id: string, props: StatefulStackProps = {}) {
    super(scope, id, props);

    const ledgerTable = new LedgerTable(this, 'Ledger', {
      deletionProtection: props.deletionProtection ?? true,
    });
    this.table = ledgerTable.table;

    new CfnOutput(this, 'TableName', {
      description: 'Name of the ledger DynamoDB table',
      value: this.table.tableName,
    });
  }
}
