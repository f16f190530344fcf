import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { DUE_INDEX } from '../../functions/store/due-index';
import { handlerEntry, LedgerFunction, type LedgerFunctionDefaults } from './ledger-function';

/**
 * The sweeper's actions: `Query` on the due index, `GetItem` to re-read an item before settling
 * it, and the item writes of its one-transaction settlements (UpdateItem, ConditionCheckItem).
 */
const SWEEPER_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
] as const;

/** EventBridge runs a schedule at most once a minute: the sweep's bound is due + 60 s. */
export const SWEEP_SCHEDULE = events.Schedule.rate(Duration.minutes(1));

export interface SweeperProps {
  readonly functionDefaults?: LedgerFunctionDefaults;
  readonly table: dynamodb.ITable;
  /** What `loadConfig` reads (TABLE_NAME, …). */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The one sweeper (`functions/sweeper/handler.ts`, docs/contract.md §11, §12, §14): a function
 * on a one-minute schedule that releases expired holds and times out overdue executions. One
 * run at a time (reserved concurrency 1); settling is conditional, so an overlap would be
 * harmless anyway.
 */
export class Sweeper extends Construct {
  readonly function: LedgerFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: SweeperProps) {
    super(scope, id);
    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('sweeper'),
      description: 'idempotent-ledger sweeper (expired holds, execution deadlines), every minute',
      timeout: Duration.seconds(60),
      reservedConcurrentExecutions: 1,
      environment: props.environment,
    });
    this.function.allow(
      'DueIndexQuery',
      ['dynamodb:Query'],
      [`${props.table.tableArn}/index/${DUE_INDEX.name}`],
    );
    this.function.allow('LedgerTableSettle', SWEEPER_TABLE_ACTIONS, [props.table.tableArn]);
    this.rule = new events.Rule(this, 'Schedule', {
      description: 'Runs the sweeper every minute',
      schedule: SWEEP_SCHEDULE,
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 0 })],
    });
  }
}
