import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DUE_INDEX } from '../../../functions/dynamodb/table/due-index';
import { keys } from '../../../functions/dynamodb/table/keys';
import type { GapTopicRef } from '../events/gap-topic';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';

/**
 * The function's timeout. The handler stops starting new pages after 40 s
 * (functions/handlers/sweeper/handler.ts), so a run ends before the next one is scheduled.
 */
const SWEEPER_TIMEOUT = Duration.seconds(60);

/** EventBridge runs scheduled rules at most once a minute: the sweep's bound is due + 60 s. */
const SWEEP_SCHEDULE = events.Schedule.rate(Duration.minutes(1));

/**
 * The sweeper's only table actions. It reads the due index (Query on the index ARN), re-reads an
 * execution before timing it out (GetItem), and settles each item in one transaction, which IAM
 * authorises per item: UpdateItem for the hold, the account, the execution and its task,
 * PutItem for the hold's listing copy, ConditionCheckItem for the guards. No DeleteItem, no Scan.
 */
const SWEEPER_INDEX_ACTIONS = ['dynamodb:Query'] as const;
/** Partition keys the sweeper may touch, spelled by functions/dynamodb/table/keys.ts itself. */
const SWEEPER_PARTITIONS = [
  keys.hold('*').pk,
  keys.account('*').pk,
  keys.task('*').pk,
  // Re-fetch requests (docs/contract.md §18): the sequence items live in ACCOUNT#.
  keys.gapRequest('*').pk,
];
/** An INTAKE_DUE marker is postponed or, once its account is drained, deleted (§36). */
const INTAKE_DUE_ACTIONS = ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'] as const;
/** Every intake partition (`INTAKE#<account>#<shard>`), spelled by keys.ts itself. */
const INTAKE_PARTITION = keys.intakeGate('*', 0).pk.replace(/0$/, '*');
/** Publishing to a KMS-encrypted topic needs exactly these on its key. */
const TOPIC_KEY_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'] as const;
const SWEEPER_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:UpdateItem',
  'dynamodb:PutItem',
  'dynamodb:ConditionCheckItem',
] as const;

export interface SweeperProps {
  /** Log group settings and test code shared by every function of the stack. */
  readonly functionDefaults?: LedgerFunctionDefaults;
  /** The ledger table with the due index (lib/constructs/shared/ledger-table.ts). */
  readonly table: dynamodb.ITable;
  /** What `loadConfig` reads in every handler (TABLE_NAME, …). */
  readonly environment: Readonly<Record<string, string>>;
  /** Where re-fetch requests go (docs/contract.md §18): publish on it, encrypt with its key. */
  readonly gapTopic: GapTopicRef;
  /** `credit-intake`: deferred accounts whose pending credits stranded go there again (§36). */
  readonly creditIntakeQueue: sqs.IQueue;
}

/**
 * The sweeper (docs/contract.md §11 "Sweeper", §12): a {@link LedgerFunction} that EventBridge
 * invokes every minute. Each run settles what fell due in the sparse `due` index: active holds
 * past their expiry are released (status `expired`, amount back to `available`), executions past
 * their deadline are timed out. Two runs at
 * once are safe: each item is settled by a conditional transaction, the loser's condition fails.
 */
export class Sweeper extends Construct {
  readonly function: LedgerFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: SweeperProps) {
    super(scope, id);
    const { table } = props;
    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('sweeper'),
      description:
        'idempotent-ledger sweeper (expired holds, execution deadlines, gap re-fetch), every minute',
      timeout: SWEEPER_TIMEOUT,
      environment: {
        ...props.environment,
        GAP_TOPIC_ARN: props.gapTopic.topic.topicArn,
        CREDIT_INTAKE_QUEUE_URL: props.creditIntakeQueue.queueUrl,
      },
    });
    // Lambda's own queue for asynchronous invocations would retry a failed or throttled run for
    // up to six hours; the next scheduled run, a minute later, does the same work instead.
    this.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    this.function.allow('DueIndexRead', SWEEPER_INDEX_ACTIONS, [
      `${table.tableArn}/index/${DUE_INDEX.name}`,
    ]);
    // Only the partitions a settlement touches: a hold, its account (balance, listing copy) and
    // a task (its execution items live in the task's partition). Never idempotency or inbox records.
    this.function.allow('SettleDueItems', SWEEPER_TABLE_ACTIONS, [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': SWEEPER_PARTITIONS },
    });

    // Stranded deferred accounts (docs/contract.md §24): the INTAKE_DUE markers (postponed, or
    // deleted once the account is drained), the oldest pending credit of each intake partition
    // (Query) and `credit-intake`, where the account is queued again.
    this.function.allow('IntakeDueMarkers', INTAKE_DUE_ACTIONS, [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.intakeDue('*').pk] },
    });
    this.function.allow('IntakeOldestPending', ['dynamodb:Query'], [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [INTAKE_PARTITION] },
    });
    this.function.allow(
      'CreditIntakeRequeue',
      ['sqs:SendMessage'],
      [props.creditIntakeQueue.queueArn],
    );

    // Only the gap topic and its key: the one topic the sweeper publishes to.
    this.function.allow('GapRequestPublish', ['sns:Publish'], [props.gapTopic.topic.topicArn]);
    this.function.allow('GapTopicKey', TOPIC_KEY_ACTIONS, [props.gapTopic.key.keyArn]);

    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Runs the sweeper: releases expired holds, times out overdue executions',
      schedule: SWEEP_SCHEDULE,
      targets: [
        new targets.LambdaFunction(this.function, {
          // A missed run is not retried: the next one, a minute later, sweeps the same items.
          retryAttempts: 0,
          maxEventAge: Duration.minutes(1),
        }),
      ],
    });
  }
}
