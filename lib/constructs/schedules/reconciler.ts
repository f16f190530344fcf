import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { keys } from '../../../functions/dynamodb/table/keys';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';

/**
 * The function's timeout. The handler starts no new account after 12 minutes
 * (functions/handlers/reconciler/handler.ts); what is left waits for the next hour, resumed
 * from each account's checkpoint.
 */
const RECONCILER_TIMEOUT = Duration.minutes(15);

/** docs/contract.md §19: hourly on AWS (npm start: every RECONCILE_INTERVAL_SECONDS). */
const RECONCILE_SCHEDULE = events.Schedule.rate(Duration.hours(1));

/**
 * What the reconciler reads, strongly consistent: accounts with their entries and hold copies,
 * journals, entry pointers, transfers and ledger transactions — and nothing else (no
 * idempotency or inbox records, no tasks).
 */
const READ_PARTITIONS = [
  keys.account('*').pk,
  keys.journalHead('*').pk,
  keys.entryPointer('*').pk,
  keys.transfer('*').pk,
  keys.ledgerTransaction('*').pk,
];
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;

/** Its own items: markers (read), checkpoints and findings. It never writes money. */
const OWN_PARTITIONS = [
  keys.reconcileMarker('*', '').pk,
  keys.reconcileCheckpoint('*').pk,
  keys.reconcileFinding('', '', undefined).pk,
];
const OWN_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'] as const;
/**
 * The one DeleteItem of the service: a checked account's marker, so the next run reads only
 * accounts that changed since (conditional on the marker still naming what was checked).
 */
const MARKER_PARTITIONS = [keys.reconcileMarker('*', '').pk];

export interface ReconcilerProps {
  /** Log group settings and test code shared by every function of the stack. */
  readonly functionDefaults?: LedgerFunctionDefaults;
  readonly table: dynamodb.ITable;
  /** What `loadConfig` reads in every handler (TABLE_NAME, …). */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The reconciler (docs/contract.md §19): a {@link LedgerFunction} EventBridge invokes every hour.
 * Each run checks the accounts whose journal moved since the last one, from their checkpoints;
 * a finding is logged, counted (`ReconciliationMismatches`) and alarmed on
 * (`reconciliation-mismatch`). Two runs at once are safe: findings are written once by key and a
 * checkpoint only ever moves to what was checked.
 */
export class Reconciler extends Construct {
  readonly function: LedgerFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: ReconcilerProps) {
    super(scope, id);
    const { table } = props;
    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('reconciler'),
      description: 'idempotent-ledger reconciler (journals, entries, balances, holds), hourly',
      timeout: RECONCILER_TIMEOUT,
      environment: { ...props.environment },
    });
    // The next hourly run does the same work; Lambda's own async retries would only overlap it.
    this.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(5) });
    this.function.allow('ReconcileReads', READ_ACTIONS, [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': READ_PARTITIONS },
    });
    this.function.allow('ReconcileOwnItems', OWN_ACTIONS, [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': OWN_PARTITIONS },
    });
    this.function.allow('ReconcileClearMarks', ['dynamodb:DeleteItem'], [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': MARKER_PARTITIONS },
    });
    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Runs the reconciler: checks journals, entries, balances and holds',
      schedule: RECONCILE_SCHEDULE,
      targets: [
        new targets.LambdaFunction(this.function, {
          retryAttempts: 0,
          maxEventAge: Duration.hours(1),
        }),
      ],
    });
  }
}
