import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import {
  CREDIT_INTAKE_BATCH_SIZE,
  CREDIT_INTAKE_BATCHING_WINDOW_SECONDS,
} from '../../../functions/contract/intake';
import { QUEUE_NAMES } from '../../../functions/contract/names';
import { keys } from '../../../functions/dynamodb/table/keys';
import { assertVisibilityCoversConsumer } from '../../events-timing';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';
import type { QueueWithDeadLetterRef } from '../shared/queue-with-dead-letter';
import { CREDIT_INTAKE_FOLDER_TIMEOUT } from './credit-intake-queues';

/**
 * Most folder invocations the event source runs at once. Folders that meet on one account
 * converge (the loser finds its items gone), so more would only burn retries on a hot account;
 * 5 keeps a backlog of many accounts moving. 2 is the least SQS event sources accept.
 */
export const CREDIT_INTAKE_MAX_CONCURRENCY = 5;

/**
 * What the folder's store (functions/dynamodb/intake/posting-store.ts) does, by partition; a
 * TransactWriteItems is authorised per item. The intake partitions (`INTAKE#<accountId>#<shard>`):
 * Query the pending credits, Update the partition's posted count (`INTAKE#…` / `POSTED`, never
 * the gate), and (a statement of its own) Delete each posted pending credit, only if still there.
 */
const INTAKE_ACTIONS = ['dynamodb:Query', 'dynamodb:UpdateItem'] as const;
const PENDING_REMOVE_ACTIONS = ['dynamodb:DeleteItem'] as const;
/** The account's INTAKE_DUE marker: its count read before a run, deleted once drained. */
const INTAKE_DUE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:DeleteItem'] as const;
/** The account's partition: GetItem (its `intakeShards`), Update (the posting), Put (entries). */
const ACCOUNT_ACTIONS = ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'] as const;
/** Each posted entry's id pointer (`ENTRY_ID#<entryId>`), written new. */
const ENTRY_POINTER_ACTIONS = ['dynamodb:PutItem'] as const;
/**
 * A credit set aside (§36, functions/dynamodb/intake/set-aside.ts): its `SETASIDE#…` item in its
 * intake partition and its reconciliation finding (`RECONCILE_FINDINGS`), each written new.
 */
const SET_ASIDE_ACTIONS = ['dynamodb:PutItem'] as const;
const FINDING_PARTITIONS = [keys.reconcileFinding('*', '*', 0).pk];

/** `dynamodb:LeadingKeys` of each statement, spelled by functions/dynamodb/table/keys.ts. */
const INTAKE_PARTITIONS = [keys.intakeGate('*', 0).pk.replace(/0$/, '*')];
const ACCOUNT_PARTITIONS = [keys.account('*').pk];
const ENTRY_POINTER_PARTITIONS = [keys.entryPointer('*').pk];

const leadingKeys = (partitions: readonly string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...partitions] },
});

export interface CreditFolderProps {
  /** Log group settings and test code shared by every function of the stack. */
  readonly functionDefaults?: LedgerFunctionDefaults;
  /** The ledger table. */
  readonly table: dynamodb.ITable;
  /** `credit-intake` (the event source, and where an unfinished account goes again) and its DLQ. */
  readonly queues: QueueWithDeadLetterRef;
  /** What `loadConfig` reads in every handler (TABLE_NAME, …); the queue URL is added here. */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The folder (docs/contract.md §24; `functions/handlers/credit-intake/handler.ts`): a
 * {@link LedgerFunction} fed by `credit-intake` with partial batch responses, that posts the
 * pending credits of each account a message names. A run that fails reports its records: after
 * `MAX_RECEIVE_COUNT` receives they reach `credit-intake-dlq` (the redrive policy; the folder
 * never sends there itself).
 */
export class CreditFolder extends Construct {
  readonly function: LedgerFunction;
  readonly eventSource: SqsEventSource;

  constructor(scope: Construct, id: string, props: CreditFolderProps) {
    super(scope, id);
    const { table, queues } = props;
    assertVisibilityCoversConsumer(
      queues.visibilityTimeout,
      CREDIT_INTAKE_FOLDER_TIMEOUT,
      QUEUE_NAMES.creditIntake,
    );

    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('credit-intake'),
      description: 'idempotent-ledger credit folder (credit-intake -> pending credits posted)',
      timeout: CREDIT_INTAKE_FOLDER_TIMEOUT,
      // Exactly what functions/handlers/credit-intake/handler.ts reads at import.
      environment: { ...props.environment, CREDIT_INTAKE_QUEUE_URL: queues.queue.queueUrl },
    });

    // Grants the consume actions (Receive/Delete/ChangeMessageVisibility/GetQueueAttributes/
    // GetQueueUrl) on credit-intake only.
    this.eventSource = new SqsEventSource(queues.queue, {
      batchSize: CREDIT_INTAKE_BATCH_SIZE,
      maxBatchingWindow: Duration.seconds(CREDIT_INTAKE_BATCHING_WINDOW_SECONDS),
      maxConcurrency: CREDIT_INTAKE_MAX_CONCURRENCY,
      // Only the accounts whose run failed come back; the rest are deleted.
      reportBatchItemFailures: true,
    });
    this.function.addEventSource(this.eventSource);

    // An account the deadline cut short is queued again (SendMessageBatch is sqs:SendMessage).
    this.function.allow('CreditIntakeRequeue', ['sqs:SendMessage'], [queues.queue.queueArn]);
    this.function.allow(
      'IntakePartitions',
      INTAKE_ACTIONS,
      [table.tableArn],
      leadingKeys(INTAKE_PARTITIONS),
    );
    this.function.allow(
      'PostedPendingCreditsRemove',
      PENDING_REMOVE_ACTIONS,
      [table.tableArn],
      leadingKeys(INTAKE_PARTITIONS),
    );
    // A drained account's INTAKE_DUE marker goes (docs/contract.md §24): read, then deleted.
    this.function.allow(
      'IntakeDueMarker',
      INTAKE_DUE_ACTIONS,
      [table.tableArn],
      leadingKeys([keys.intakeDue('*').pk]),
    );
    this.function.allow(
      'PostToAccount',
      ACCOUNT_ACTIONS,
      [table.tableArn],
      leadingKeys(ACCOUNT_PARTITIONS),
    );
    this.function.allow(
      'EntryPointers',
      ENTRY_POINTER_ACTIONS,
      [table.tableArn],
      leadingKeys(ENTRY_POINTER_PARTITIONS),
    );
    this.function.allow(
      'SetAsideCredits',
      SET_ASIDE_ACTIONS,
      [table.tableArn],
      leadingKeys([...INTAKE_PARTITIONS, ...FINDING_PARTITIONS]),
    );
  }
}
