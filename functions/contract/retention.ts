/**
 * One source for the retention windows: the TTL written by the store and the values the
 * OpenAPI document publishes both come from the configuration built on these defaults.
 */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 86_400;
export const DEFAULT_INBOX_RETENTION_SECONDS = 2_592_000;
export const DEFAULT_EXPORT_FEE = 100;
export const DEFAULT_CALLBACK_APPLICATION_ID = 'export-worker';
