import type { HedgedReadSetting } from '../functions/contract/hedged-read';

/**
 * The shape of a deployment's settings (lib/config.ts resolves them from CDK context): every
 * field documented with its default, as aws-cdk-lib documents its readonly props.
 */

/** How API callers authenticate. */
export type AuthConfig =
  | {
      /** API Gateway HTTP API JWT authorizer (e.g. Cognito, Auth0, any OIDC issuer). */
      readonly kind: 'jwt';
      /** Issuer URL (`iss` claim), https only. */
      readonly issuer: string;
      /** Accepted audiences (`aud` / `client_id` claim); at least one. */
      readonly audience: readonly string[];
    }
  | {
      /** SigV4-signed requests authorised by IAM (`execute-api:Invoke`). */
      readonly kind: 'iam';
    };

/** API Gateway throttling: steady-state requests per second and bucket size. */
export interface ThrottleConfig {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

export type RemovalPolicyName = 'retain' | 'destroy';

/** The retention periods CloudWatch Logs accepts, in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
  3653,
] as const;

export type LogRetentionDays = (typeof LOG_RETENTION_DAYS)[number];

/**
 * Validated deployment configuration, built once from CDK context at synth time: every field is
 * resolved; `@default` says what an unset context key gives.
 */
export interface LedgerConfig {
  /** Deployment stage; part of the stack names. @default DEFAULT_STAGE ('dev') */
  readonly stage: string;
  /**
   * Route authorisation; JWT when `jwtIssuer` + `jwtAudience` are given, IAM otherwise.
   * @default - IAM (`execute-api:Invoke`)
   */
  readonly auth: AuthConfig;
  /** DynamoDB deletion protection on the ledger table. @default true */
  readonly deletionProtection: boolean;
  /**
   * How many of the account directory's indexes (`accounts`, `account-owners`, `account-names`,
   * in that order) the ledger table has: a stage deployed before the directory gains them one
   * per deploy, since CloudFormation creates at most one GSI per table update (docs/deployment.md
   * "Upgrading to the account directory"). 0–3.
   * @default 3 (all: a fresh stage)
   */
  readonly accountDirectoryIndexes: number;
  /**
   * What happens to every resource except the ledger table (queues, callback secret, log groups,
   * alarm topic key) when it leaves its stack. The table is always retained.
   * @default 'retain' with deletion protection, 'destroy' without
   */
  readonly removalPolicy: RemovalPolicyName;
  /** Retention of every log group (functions, API access logs), in days. @default 30 */
  readonly logRetentionDays: LogRetentionDays;
  /**
   * How long an idempotency record replays, in seconds.
   * @default DEFAULT_IDEMPOTENCY_RETENTION_SECONDS (24 h)
   */
  readonly idempotencyRetentionSeconds: number;
  /**
   * How the HTTP function reads a request's claim beside its transaction, answering a replay
   * from the read (`IDEMPOTENCY_HEDGED_READ`; docs/contract.md §4): `adaptive` only while an
   * instance meets replays, `always` (1–4 read units per write request), `off`; `true` and
   * `false` mean `adaptive` and `off`. @default 'adaptive'
   */
  readonly idempotencyHedgedRead: HedgedReadSetting;
  /**
   * How long an inbox event id is remembered, in seconds.
   * @default DEFAULT_INBOX_RETENTION_SECONDS (30 days)
   */
  readonly inboxRetentionSeconds: number;
  /** Fee debited per export task, in minor units. @default DEFAULT_EXPORT_FEE (100) */
  readonly exportFee: number;
  /**
   * An execution's deadline after its creation; the export retries fit before it with 60 s to spare (> 810 s).
   * @default DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS (900)
   */
  readonly exportExecutionTimeoutSeconds: number;
  /**
   * Reruns a task accepts before `409 rerun_limit_reached`.
   * @default DEFAULT_MAX_RERUNS_PER_TASK (20)
   */
  readonly maxRerunsPerTask: number;
  /**
   * Days the export bucket keeps a file (its lifecycle rule) and the result route serves it.
   * @default DEFAULT_EXPORT_RETENTION_DAYS (7)
   */
  readonly exportRetentionDays: number;
  /**
   * Most ledger events per consumer invocation (SQS batch size), 1–100; above 10 the event
   * source gathers a batch within its batching window. A batch's records of one account commit
   * in batched transactions (docs/contract.md §20).
   * @default DEFAULT_EVENTS_BATCH_SIZE (10)
   */
  readonly eventsBatchSize: number;
  /**
   * Most concurrent consumer invocations (event source maximum concurrency), 2–1000.
   * @default DEFAULT_EVENTS_MAX_CONCURRENCY (5)
   */
  readonly eventsMaxConcurrency: number;
  /**
   * How long a sequence gap stays open before the sweeper asks its producer to send it again
   * (`GAP_REFETCH_AFTER_SECONDS` of the events consumer and the sweeper, docs/contract.md §18);
   * a gap open 12 times as long raises event-gaps-overdue. 60–86400: the sweeper runs every
   * minute, and a day is as long as a producer is asked to keep what it sent.
   * @default DEFAULT_GAP_REFETCH_AFTER_SECONDS (300)
   */
  readonly gapRefetchAfterSeconds: number;
  /**
   * How far back a movement's `effectiveAt` may lie (`BACKDATE_LIMIT_DAYS` of every function,
   * docs/contract.md §26): older ones are `400 validation_failed`. 1–3660.
   * @default DEFAULT_BACKDATE_LIMIT_DAYS (90)
   */
  readonly backdateLimitDays: number;
  /**
   * Intake partitions of an account that turns deferred (`INTAKE_SHARDS` of the HTTP function,
   * docs/contract.md §24), fixed per account when it turns deferred. 1–9.
   * @default DEFAULT_INTAKE_SHARDS (8)
   */
  readonly intakeShards: number;
  /**
   * When pending credits of a deferred account count as stranded (docs/contract.md §24, §36):
   * `INTAKE_STRANDED_AFTER_SECONDS` of the outbox dispatcher (an account's `INTAKE_DUE` marker
   * falls due this long after a credit) and of the sweeper (which queues the account again and
   * postpones the marker by as much). 1–86400.
   * @default DEFAULT_INTAKE_STRANDED_AFTER_SECONDS (60)
   */
  readonly intakeStrandedAfterSeconds: number;
  /**
   * The application whose signed callbacks report on export executions: its key in the
   * callback secret, `CALLBACK_APPLICATION_ID` of the functions and the `callbackPath` of every
   * export job (`/v1/callbacks/<id>`).
   * @default DEFAULT_CALLBACK_APPLICATION_ID ('export-worker')
   */
  readonly callbackApplicationId: string;
  /**
   * `$default` stage throttling: applies to every route without its own setting.
   * @default DEFAULT_API_THROTTLE (100 requests per second, bursts of 200)
   */
  readonly apiThrottle: ThrottleConfig;
  /**
   * Route throttling of the unauthenticated `POST /v1/callbacks/{applicationId}`; never above
   * the stage's. @default - half the stage's limits, at least 1
   */
  readonly callbackThrottle: ThrottleConfig;
  /** Reserved concurrency of the HTTP function; `undefined` reserves none. @default undefined */
  readonly httpReservedConcurrency: number | undefined;
  /**
   * Reserved concurrency of the outbox dispatcher; `undefined` reserves none.
   * @default DEFAULT_DISPATCHER_RESERVED_CONCURRENCY (2)
   */
  readonly dispatcherReservedConcurrency: number | undefined;
  /** Subscribed to the alarm topic (e-mail subscription) when set. @default - no subscription */
  readonly alarmEmail: string | undefined;
  /**
   * 5xx responses of the HTTP API within 5 minutes that raise the API 5xx alarm.
   * @default DEFAULT_API_5XX_THRESHOLD (5)
   */
  readonly api5xxThreshold: number;
  /**
   * Principals that may read the journal and the as-of balances of EVERY account
   * (docs/contract.md §15): downstream consumers that fill gaps for all accounts. Each exactly as
   * the HTTP function sees callers: a JWT `sub`, an IAM user ARN, or
   * `arn:aws:sts::<account>:assumed-role/<role>`.
   * @default [] (owners only)
   */
  readonly journalReaders: readonly string[];
}
