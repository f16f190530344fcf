import type { ServiceSetting } from '../../../functions/handlers/shared/config';
import type { LedgerConfig } from '../../config';

type Settings = Partial<Record<ServiceSetting, string>>;

/** What `loadConfig` reads in every handler: the table and the service-wide settings. */
export const serviceEnvironmentOf = (config: LedgerConfig, tableName: string) =>
  ({
    TABLE_NAME: tableName,
    IDEMPOTENCY_RETENTION_SECONDS: String(config.idempotencyRetentionSeconds),
    INBOX_RETENTION_SECONDS: String(config.inboxRetentionSeconds),
    EXPORT_FEE: String(config.exportFee),
    CALLBACK_APPLICATION_ID: config.callbackApplicationId,
    BACKDATE_LIMIT_DAYS: String(config.backdateLimitDays),
    INTAKE_SHARDS: String(config.intakeShards),
  }) satisfies Settings;

/** The export settings, for the functions that create executions or serve their files. */
export const exportEnvironmentOf = (
  config: LedgerConfig,
  service: ReturnType<typeof serviceEnvironmentOf>,
  bucketName: string,
) =>
  ({
    ...service,
    EXPORT_EXECUTION_TIMEOUT_SECONDS: String(config.exportExecutionTimeoutSeconds),
    MAX_RERUNS_PER_TASK: String(config.maxRerunsPerTask),
    EXPORT_RETENTION_DAYS: String(config.exportRetentionDays),
    EXPORT_BUCKET: bucketName,
  }) satisfies Settings;
