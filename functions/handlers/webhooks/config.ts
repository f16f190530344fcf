import {
  DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES,
  DEPLOYED_WEBHOOK_RETRIES,
  type WebhookRetrySchedule,
} from '../../contract/webhooks';
import { loadConfig, type ServiceConfig } from '../shared/config';
import {
  envSchema,
  queueUrl,
  rule,
  stageName,
  valueOrThrow,
  wholeNumber,
} from '../shared/env-rules';

/** The webhook settings the HTTP function reads besides its own (docs/contract.md §32). */
export interface WebhookHttpSettings {
  /** `WEBHOOK_QUEUE_URL`: manual retries and resumed endpoints go there. */
  readonly webhookQueueUrl: string;
  /** `WEBHOOK_SEALING_KEY_ARN`: the KMS-encrypted secret whose value seals endpoint secrets. */
  readonly webhookSealingKeyArn: string;
}

export interface WebhooksConfig extends ServiceConfig, WebhookHttpSettings {
  /** The events' `source` is `urn:idempotent-ledger:<stage>`, as the projector publishes. */
  readonly stage: string;
  readonly retries: WebhookRetrySchedule;
  /** `WEBHOOK_DISABLE_AFTER_FAILURES`: failed attempts in a row that disable an endpoint. */
  readonly disableAfterFailures: number;
}

const secretArn = (name: string) =>
  rule<string>(
    name,
    undefined,
    (value) => (/^arn:[^:]+:secretsmanager:/.test(value) ? value : undefined),
    'be a Secrets Manager secret ARN',
  );

const httpRules = {
  WEBHOOK_QUEUE_URL: queueUrl('WEBHOOK_QUEUE_URL'),
  WEBHOOK_SEALING_KEY_ARN: secretArn('WEBHOOK_SEALING_KEY_ARN'),
};

const DAY = 86_400;
const deliveryRules = {
  ...httpRules,
  STAGE: stageName(),
  WEBHOOK_RETRY_BASE_SECONDS: wholeNumber(
    'WEBHOOK_RETRY_BASE_SECONDS',
    1,
    3600,
    DEPLOYED_WEBHOOK_RETRIES.baseDelaySeconds,
  ),
  WEBHOOK_RETRY_MAX_DELAY_SECONDS: wholeNumber(
    'WEBHOOK_RETRY_MAX_DELAY_SECONDS',
    1,
    DAY,
    DEPLOYED_WEBHOOK_RETRIES.maxDelaySeconds,
  ),
  WEBHOOK_RETRY_WINDOW_SECONDS: wholeNumber(
    'WEBHOOK_RETRY_WINDOW_SECONDS',
    60,
    3 * DAY,
    DEPLOYED_WEBHOOK_RETRIES.retryWindowSeconds,
  ),
  WEBHOOK_DISABLE_AFTER_FAILURES: wholeNumber(
    'WEBHOOK_DISABLE_AFTER_FAILURES',
    1,
    100_000,
    DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES,
  ),
};

/**
 * The webhook functions' own variables (their queue, the sealing key, the retry schedule): the
 * local stack passes its own resources for them (local/functions.ts), like any function's own.
 */
export const WEBHOOK_SETTINGS = Object.keys(deliveryRules);

const httpEnv = envSchema(httpRules, (values) => values);
const deliveryEnv = envSchema(deliveryRules, (values) => values);

type Env = Record<string, string | undefined>;

/** What the deployed HTTP function reads for webhooks; a missing value fails at cold start. */
export function loadWebhookHttpSettings(env: Env): WebhookHttpSettings {
  const e = valueOrThrow(httpEnv.read(env));
  return { webhookQueueUrl: e.WEBHOOK_QUEUE_URL, webhookSealingKeyArn: e.WEBHOOK_SEALING_KEY_ARN };
}

/** The delivery function's configuration: the shared settings plus its own. */
export function loadWebhooksConfig(env: Env): WebhooksConfig {
  const shared = loadConfig(env);
  const e = valueOrThrow(deliveryEnv.read(env));
  return {
    ...shared,
    webhookQueueUrl: e.WEBHOOK_QUEUE_URL,
    webhookSealingKeyArn: e.WEBHOOK_SEALING_KEY_ARN,
    stage: e.STAGE,
    retries: {
      baseDelaySeconds: e.WEBHOOK_RETRY_BASE_SECONDS,
      maxDelaySeconds: e.WEBHOOK_RETRY_MAX_DELAY_SECONDS,
      retryWindowSeconds: e.WEBHOOK_RETRY_WINDOW_SECONDS,
    },
    disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
  };
}
