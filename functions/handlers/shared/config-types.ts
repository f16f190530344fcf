import type { HttpAppConfig } from '../../api/app';
import type { HedgedReadSetting } from '../../contract/hedged-read';
import type { SecretMap } from '../../schemas/exports/callbacks';

/**
 * The configuration every function's composition receives (functions/handlers/shared/config.ts
 * reads and validates it once at cold start from the variables its schema lists).
 */

/**
 * What every function reads: the HTTP API's settings (`HttpAppConfig`, one definition of each)
 * plus the table and bucket; each function's own variables come on top (FunctionConfigs).
 */
export interface ServiceConfig extends HttpAppConfig {
  /** DynamoDB table holding accounts, ledger entries and idempotency/inbox records. */
  readonly tableName: string;
  /** The bucket holding export objects (contract §12). */
  readonly exportBucket: string;
  /**
   * Answer replays and mismatches of keys this instance saw settle from memory
   * (`IDEMPOTENCY_LOCAL_CACHE=off` disables it; docs/contract.md §4). @default true
   */
  readonly idempotencyLocalCache?: boolean;
  /**
   * How a request's claim is read beside its transaction, a replay answered from the read
   * (`IDEMPOTENCY_HEDGED_READ`; functions/contract/hedged-read.ts; docs/contract.md §4, §36).
   * @default 'adaptive'
   */
  readonly idempotencyHedgedRead?: HedgedReadSetting;
  /** `INTAKE_STRANDED_AFTER_SECONDS`: when pending credits strand (§36). @default 60 */
  readonly intakeStrandedAfterSeconds?: number;
}

/** Where the HTTP function reads callback signing secrets (contract §7). */
export type CallbackSecretsSource =
  | { readonly secretArn: string }
  | { readonly document: SecretMap };

export interface HttpConfig extends ServiceConfig {
  readonly callbackSecrets: CallbackSecretsSource;
}
export interface EventsConfig extends ServiceConfig {
  /** `ledger-events-dlq`, where poison events go at once (contract §6). */
  readonly deadLetterQueueUrl: string;
  /** `GAP_REFETCH_AFTER_SECONDS`: when a new gap falls due for its re-fetch (docs/contract.md §18). */
  readonly gapRefetchAfterSeconds: number;
}

export interface SweeperConfig extends ServiceConfig {
  /** `GAP_REFETCH_AFTER_SECONDS` (docs/contract.md §18), as the events consumer reads it. */
  readonly gapRefetchAfterSeconds: number;
  /** The topic re-fetch requests go to (`GapTopicArn`). */
  readonly gapTopicArn: string;
  /** The deployment's stage: the requests' `source` is `urn:idempotent-ledger:<stage>`. */
  readonly stage: string;
  /** `credit-intake`: deferred accounts whose pending credits stranded are queued again (§36). */
  readonly creditIntakeQueueUrl: string;
}
export interface DispatcherConfig extends ServiceConfig {
  /** `export-jobs`, where the outbox delivers (contract §8). */
  readonly exportJobsQueueUrl: string;
  /** `credit-intake`: accounts with new pending credits go there (docs/contract.md §24). */
  readonly creditIntakeQueueUrl: string;
}

export interface CreditIntakeConfig extends ServiceConfig {
  /** `credit-intake`, the folder's own queue: an unfinished account is queued again (§24). */
  readonly creditIntakeQueueUrl: string;
}

export interface JournalProjectorConfig extends ServiceConfig {
  /** The journal topic (docs/contract.md §15): every record is published there. */
  readonly journalTopicArn: string;
  /**
   * `search-index` (docs/contract.md §34): the projector hands the search indexer each update.
   * Absent: no search index (a deployment without it).
   */
  readonly searchIndexQueueUrl?: string;
  /** The deployment's stage: the events' `source` is `urn:idempotent-ledger:<stage>`. */
  readonly stage: string;
}

export interface ExportWorkerConfig extends ServiceConfig {
  /** Base URL of the HTTP API: the worker's signed callbacks go to its callback path. */
  readonly apiUrl: string;
  /** The export application's signing secrets (contract §7, §12). */
  readonly callbackSecrets: CallbackSecretsSource;
}

/** Each Lambda function's configuration; a new function adds its entry here and below. */
export interface FunctionConfigs {
  readonly http: HttpConfig;
  readonly events: EventsConfig;
  readonly dispatcher: DispatcherConfig;
  readonly exportWorker: ExportWorkerConfig;
  readonly sweeper: SweeperConfig;
  readonly journalProjector: JournalProjectorConfig;
  readonly reconciler: ServiceConfig;
  readonly creditIntake: CreditIntakeConfig;
  /** The search indexer (docs/contract.md §34): the table only. */
  readonly searchIndexer: ServiceConfig;
}
export type FunctionName = keyof FunctionConfigs;
/** What a function's own variables add to the shared configuration (its `env.ts`). */
export type OwnConfig<F extends FunctionName> = Omit<FunctionConfigs[F], keyof ServiceConfig>;
