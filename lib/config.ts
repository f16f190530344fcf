import {
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../functions/contract/retention';

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

/** Validated deployment configuration, built once from CDK context at synth time. */
export interface LedgerConfig {
  /** Deployment stage; part of the stack names. */
  readonly stage: string;
  /** Route authorisation; JWT when `jwtIssuer` + `jwtAudience` are given, IAM otherwise. */
  readonly auth: AuthConfig;
  /** DynamoDB deletion protection on the ledger table. */
  readonly deletionProtection: boolean;
  /** How long an idempotency record replays, in seconds. */
  readonly idempotencyRetentionSeconds: number;
  /** How long an inbox event id is remembered, in seconds. */
  readonly inboxRetentionSeconds: number;
  /** Fee debited per export task, in minor units. */
  readonly exportFee: number;
}

/**
 * Raw context values as CDK hands them over: strings when passed with `-c key=value`,
 * any JSON type when set in `cdk.json` / `cdk.context.json`. `undefined` means "not set".
 */
export type RawLedgerContext = Readonly<Partial<Record<LedgerContextKey, unknown>>>;

/** Every context key the app reads. */
export const LEDGER_CONTEXT_KEYS = [
  'stage',
  'jwtIssuer',
  'jwtAudience',
  'deletionProtection',
  'idempotencyRetentionSeconds',
  'inboxRetentionSeconds',
  'exportFee',
] as const;

export type LedgerContextKey = (typeof LEDGER_CONTEXT_KEYS)[number];

export const DEFAULT_STAGE = 'dev';

/** Stage names end up in stack names (`[A-Za-z][A-Za-z0-9-]*`), so keep them short and plain. */
const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** Thrown for any invalid context value; the message names the context key. */
export class LedgerConfigError extends Error {
  constructor(message: string) {
    super(`Invalid CDK context: ${message}`);
    this.name = 'LedgerConfigError';
  }
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function parseStage(value: unknown): string {
  if (!isSet(value)) return DEFAULT_STAGE;
  if (typeof value !== 'string' || !STAGE_PATTERN.test(value)) {
    throw new LedgerConfigError(
      `stage must match ${STAGE_PATTERN} (lowercase letter first, then lowercase letters, digits or '-', at most 20 characters); got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function parseBoolean(key: LedgerContextKey, value: unknown, fallback: boolean): boolean {
  if (!isSet(value)) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new LedgerConfigError(`${key} must be true or false; got ${JSON.stringify(value)}`);
}

function parsePositiveInteger(key: LedgerContextKey, value: unknown, fallback: number): number {
  if (!isSet(value)) return fallback;
  const parsed =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new LedgerConfigError(`${key} must be a positive integer; got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function parseIssuer(value: unknown): string {
  if (typeof value !== 'string') {
    throw new LedgerConfigError(`jwtIssuer must be a string URL; got ${JSON.stringify(value)}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LedgerConfigError(`jwtIssuer must be an https URL; got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:') {
    throw new LedgerConfigError(`jwtIssuer must be an https URL; got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseAudience(value: unknown): string[] {
  let items: unknown[];
  if (typeof value === 'string') {
    items = value.split(',');
  } else if (Array.isArray(value)) {
    items = value;
  } else {
    throw new LedgerConfigError(
      `jwtAudience must be a comma separated string or an array of strings; got ${JSON.stringify(value)}`,
    );
  }
  const audience: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      throw new LedgerConfigError(
        `jwtAudience entries must be strings; got ${JSON.stringify(item)}`,
      );
    }
    const trimmed = item.trim();
    if (trimmed !== '' && !audience.includes(trimmed)) audience.push(trimmed);
  }
  if (audience.length === 0) {
    throw new LedgerConfigError('jwtAudience must contain at least one non-empty audience');
  }
  return audience;
}

function parseAuth(issuer: unknown, audience: unknown): AuthConfig {
  const hasIssuer = isSet(issuer);
  const hasAudience = isSet(audience);
  if (hasIssuer && !hasAudience) {
    throw new LedgerConfigError('jwtIssuer is set but jwtAudience is missing; set both or neither');
  }
  if (!hasIssuer && hasAudience) {
    throw new LedgerConfigError('jwtAudience is set but jwtIssuer is missing; set both or neither');
  }
  if (!hasIssuer) return { kind: 'iam' };
  return { kind: 'jwt', issuer: parseIssuer(issuer), audience: parseAudience(audience) };
}

/**
 * Validates raw CDK context and applies defaults. Pure: no CDK, no environment access, so
 * every branch can be unit-tested. Throws {@link LedgerConfigError} with the offending key.
 */
export function resolveLedgerConfig(raw: RawLedgerContext): LedgerConfig {
  return {
    stage: parseStage(raw.stage),
    auth: parseAuth(raw.jwtIssuer, raw.jwtAudience),
    deletionProtection: parseBoolean('deletionProtection', raw.deletionProtection, true),
    idempotencyRetentionSeconds: parsePositiveInteger(
      'idempotencyRetentionSeconds',
      raw.idempotencyRetentionSeconds,
      DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
    ),
    inboxRetentionSeconds: parsePositiveInteger(
      'inboxRetentionSeconds',
      raw.inboxRetentionSeconds,
      DEFAULT_INBOX_RETENTION_SECONDS,
    ),
    exportFee: parsePositiveInteger('exportFee', raw.exportFee, DEFAULT_EXPORT_FEE),
  };
}

/** Reads every ledger context key through `lookup` (e.g. `app.node.tryGetContext`). */
export function readLedgerContext(lookup: (key: string) => unknown): RawLedgerContext {
  const raw: Partial<Record<LedgerContextKey, unknown>> = {};
  for (const key of LEDGER_CONTEXT_KEYS) raw[key] = lookup(key);
  return raw;
}
