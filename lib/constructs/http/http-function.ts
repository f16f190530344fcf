import { fileURLToPath } from 'node:url';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { PUBLISHED_FILE } from '../../../functions/api/document/published';
import { EXPORT_KEY_PREFIX } from '../../../functions/contract/exports';
import { keys } from '../../../functions/dynamodb/table/keys';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';
import { LEDGER_WRITER_TABLE_ACTIONS } from '../shared/ledger-table';

/**
 * Secrets Manager actions of the HTTP function on the callback secret. Deliberately not
 * `secret.grantRead()`, which adds `DescribeSecret` the function never calls.
 */
const CALLBACK_SECRET_ACTIONS = ['secretsmanager:GetSecretValue'] as const;

/**
 * S3 actions of the HTTP function for results (docs/contract.md §12): `GetObject` on `exports/*`
 * authorises the HEAD that tells a kept file from an expired one and the presigned GET it hands
 * out; `ListBucket` makes S3 answer a missing key 404 (not 403), i.e. `410 result_expired`.
 */
const HTTP_RESULT_OBJECT_ACTIONS = ['s3:GetObject'] as const;
const HTTP_RESULT_BUCKET_ACTIONS = ['s3:ListBucket'] as const;

export interface LedgerHttpFunctionProps {
  /** Log group settings and test code shared by every function of the stack. */
  readonly functionDefaults?: LedgerFunctionDefaults;

  /**
   * The ledger table; the function gets {@link LEDGER_WRITER_TABLE_ACTIONS} on its ARN only
   * (the due index is the sweeper's alone).
   */
  readonly table: dynamodb.ITable;

  /** Callback signing secrets (`CALLBACK_SECRETS_ARN`); the handler refuses to start without. */
  readonly callbackSecret: secretsmanager.ISecret;

  /** The export bucket: the function reads `exports/*` (HEAD, presigned GETs) and lists it. */
  readonly exportBucket: s3.IBucket;

  /** What `loadConfig` reads in every handler (TABLE_NAME, the export settings, …). */
  readonly environment: Readonly<Record<string, string>>;

  /** Why the role names `exports/*` (the cdk-nag IAM5 acknowledgement). */
  readonly exportObjectsReason: string;

  /**
   * Concurrent executions reserved for (and capped at) the function.
   * @default - none reserved: the stage throttle already bounds the load, and a reservation
   * would take that much from the pool every other function in the account shares
   */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * The function behind every HTTP route (`functions/handlers/http/handler.ts`, payload v2),
 * allowed item-level writes on the ledger table, to read the callback secret and the export
 * results. A {@link LedgerFunction} created in its stack's scope under the stack's id for it, so
 * the logical ids of the function, its role and its log group stay those it was deployed with.
 */
export class LedgerHttpFunction extends LedgerFunction {
  constructor(scope: Construct, id: string, props: LedgerHttpFunctionProps) {
    const { callbackSecret, exportBucket } = props;
    super(scope, id, {
      ...props.functionDefaults,
      entry: handlerEntry('http'),
      // The OpenAPI document and problem pages, read on the first /v1/openapi.json or
      // /v1/problems request (functions/api/document/published.ts), not bundled.
      besideBundle: [fileURLToPath(PUBLISHED_FILE)],
      description: 'idempotent-ledger HTTP API (payload v2)',
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      environment: { ...props.environment, CALLBACK_SECRETS_ARN: callbackSecret.secretArn },
    });
    this.allow('LedgerTableItemAccess', LEDGER_WRITER_TABLE_ACTIONS, [props.table.tableArn]);
    // DELETE of a balance monitor (docs/contract.md §28): the one item it removes, nothing else.
    this.allow('MonitorDelete', ['dynamodb:DeleteItem'], [props.table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.monitorCount('').pk}*`] },
    });
    // The secret is encrypted with the AWS-managed key (aws/secretsmanager): no kms:Decrypt.
    this.allow('CallbackSecretRead', CALLBACK_SECRET_ACTIONS, [callbackSecret.secretArn]);
    const exportObjects = exportBucket.arnForObjects(`${EXPORT_KEY_PREFIX}*`);
    this.allow('ExportResultsRead', HTTP_RESULT_OBJECT_ACTIONS, [exportObjects]);
    this.acknowledgeWildcardResource(exportObjects, props.exportObjectsReason);
    this.allow('ExportBucketList', HTTP_RESULT_BUCKET_ACTIONS, [exportBucket.bucketArn]);
  }
}
