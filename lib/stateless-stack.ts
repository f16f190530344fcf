import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  CrossStackReferences,
  ReferenceStrength,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import {
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../functions/contract/retention';
import type { AuthConfig } from './config';
import { LedgerFunction } from './constructs/ledger-function';
import { LedgerHttpApi } from './constructs/ledger-http-api';

/** Entry of the HTTP Lambda, resolved from this file so the CWD does not matter. */
export const HTTP_HANDLER_ENTRY = fileURLToPath(
  new URL('../functions/http/handler.ts', import.meta.url),
);

/**
 * DynamoDB actions the HTTP function may use on the ledger table. TransactWriteItems is
 * authorised per item by PutItem / UpdateItem / ConditionCheckItem; TransactGetItems by GetItem.
 * Deliberately absent: DeleteItem, Scan, BatchWriteItem, table management.
 */
export const HTTP_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
] as const;

export interface StatelessStackProps extends StackProps {
  /** The ledger table, owned by the stateful stack. */
  readonly table: dynamodb.ITable;

  /**
   * How API callers authenticate.
   * @default { kind: 'iam' }
   */
  readonly auth?: AuthConfig;

  /**
   * Idempotency record retention in seconds (`IDEMPOTENCY_RETENTION_SECONDS`).
   * @default DEFAULT_IDEMPOTENCY_RETENTION_SECONDS (86400)
   */
  readonly idempotencyRetentionSeconds?: number;

  /**
   * Inbox event id retention in seconds (`INBOX_RETENTION_SECONDS`).
   * @default DEFAULT_INBOX_RETENTION_SECONDS (2592000)
   */
  readonly inboxRetentionSeconds?: number;

  /**
   * Fee per export task in minor units (`EXPORT_FEE`).
   * @default DEFAULT_EXPORT_FEE (100)
   */
  readonly exportFee?: number;

  /**
   * Pre-built code for the HTTP function instead of bundling {@link HTTP_HANDLER_ENTRY}.
   * For template-only infra tests; its handler must be `index.handler`.
   * @default - bundle `functions/http/handler.ts` with esbuild
   */
  readonly httpHandlerCode?: lambda.Code;
}

/**
 * Code and API: safe to destroy and redeploy at any time. Consumers added by later issues
 * (SQS inbox, outbox dispatcher) belong here, each as its own construct.
 */
export class StatelessStack extends Stack {
  /** The function behind every HTTP route. */
  readonly httpFunction: LedgerFunction;
  /** The HTTP API and its `$default` stage. */
  readonly httpApi: LedgerHttpApi;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    // References to the stateful stack are strong (Export / Fn::ImportValue): CloudFormation
    // refuses to remove an export this stack still imports. Pinned so a CDK default cannot flip it.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const { table } = props;

    this.httpFunction = new LedgerFunction(this, 'HttpFunction', {
      entry: HTTP_HANDLER_ENTRY,
      description: 'idempotent-ledger HTTP API (payload v2)',
      code: props.httpHandlerCode,
      environment: {
        TABLE_NAME: table.tableName,
        IDEMPOTENCY_RETENTION_SECONDS: String(
          props.idempotencyRetentionSeconds ?? DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
        ),
        INBOX_RETENTION_SECONDS: String(
          props.inboxRetentionSeconds ?? DEFAULT_INBOX_RETENTION_SECONDS,
        ),
        EXPORT_FEE: String(props.exportFee ?? DEFAULT_EXPORT_FEE),
      },
    });

    // Least privilege: explicit item-level actions on the table ARN only (no indexes exist).
    this.httpFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'LedgerTableItemAccess',
        actions: [...HTTP_TABLE_ACTIONS],
        resources: [table.tableArn],
      }),
    );

    this.httpApi = new LedgerHttpApi(this, 'HttpApi', {
      apiName: `${id}-http`,
      handler: this.httpFunction,
      auth: props.auth ?? { kind: 'iam' },
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Invoke URL of the HTTP API ($default stage)',
      value: this.httpApi.url,
    });
  }
}
