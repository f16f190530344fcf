import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_AWS } from '../functions/contract/local-stack';
import { stringOption, type Values } from './args';
import { dynamoEndpoint, type Env, tableName } from './config';

/** Where an operator command (`reown`, `reconcile`, `gaps-backfill`) reads and writes the table. */
export interface OperatorTable {
  /** Real AWS (credentials and region from the environment) instead of the local stack. */
  readonly aws: boolean;
  /** The local DynamoDB endpoint; empty with --aws. */
  readonly dynamodb: string;
  /** The ledger table's name. */
  readonly table: string;
}

/** The options that say where the table is, the same in every operator command. */
export const OPERATOR_TABLE_OPTIONS = {
  aws: { type: 'boolean' },
  dynamodb: { type: 'string' },
  table: { type: 'string' },
} as const;

/** Their help lines, aligned at `column` like the command's other options. */
export function operatorTableHelp(column = 18): string {
  const line = (option: string, text: string) => `  ${option.padEnd(column)}${text}`;
  const more = ' '.repeat(column + 2);
  return [
    line('--aws', 'use AWS (credentials and region from the environment), not the local stack'),
    line('--table <name>', 'the ledger table (default TABLE_NAME, locally ledger; required with'),
    `${more}--aws: the stateful stack's TableName output)`,
    line(
      '--dynamodb <url>',
      'local DynamoDB (default DYNAMODB_ENDPOINT, else http://127.0.0.1:$DYNAMODB_PORT)',
    ),
  ].join('\n');
}

/** The table an operator command was pointed at by --aws, --dynamodb and --table. */
export function operatorTable(values: Values, env: Env, command: string): OperatorTable {
  const aws = values.aws === true;
  return {
    aws,
    dynamodb: aws ? '' : dynamoEndpoint(stringOption(values, 'dynamodb'), env, command),
    table: tableName(stringOption(values, 'table'), env, aws, command),
  };
}

/**
 * Runs `work` with a DynamoDB client for an operator command, destroyed afterwards: on AWS with
 * the SDK's credentials and more attempts, locally against `--dynamodb`.
 */
export async function withOperatorDynamo<T>(
  target: Pick<OperatorTable, 'aws' | 'dynamodb'>,
  work: (dynamo: DynamoDBClient) => Promise<T>,
): Promise<T> {
  const dynamo = target.aws
    ? new DynamoDBClient({ maxAttempts: 6 })
    : new DynamoDBClient({ ...LOCAL_AWS, endpoint: target.dynamodb, maxAttempts: 3 });
  try {
    return await work(dynamo);
  } finally {
    dynamo.destroy();
  }
}
