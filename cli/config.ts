import {
  DEFAULT_DYNAMODB_PORT,
  DEFAULT_PORT,
  DEFAULT_SQS_PORT,
  DEFAULT_TABLE_NAME,
  LOCAL_AWS,
  localCallbackSecretsJson,
} from '../functions/contract/local-stack';
import { DEFAULT_CALLBACK_APPLICATION_ID } from '../functions/contract/retention';
import { messageOf } from '../functions/domain/shared/log';
import { parseSecretMap, type SecretMap, secretsOf } from '../functions/schemas/exports/callbacks';
import { stringOption, uuidOption, type Values } from './args';
import { CliError, UsageError } from './errors';

/**
 * Where the CLI finds the local stack and how it signs: flags first, then the same variables
 * `npm start` reads (PORT, SQS_PORT, SQS_ENDPOINT, CALLBACK_SECRETS, CALLBACK_APPLICATION_ID),
 * then the stack's defaults.
 */
export type Env = Record<string, string | undefined>;

export const SQS_REGION = LOCAL_AWS.region;
export const SQS_CREDENTIALS = LOCAL_AWS.credentials;

/** The HTTP API base URL: `--url`, else http://127.0.0.1:$PORT (3000). */
export function apiUrl(flag: string | undefined, env: Env, command: string): string {
  if (flag !== undefined) return checkUrl(flag, '--url', command);
  return `http://127.0.0.1:${port(env.PORT, 'PORT', DEFAULT_PORT)}`;
}

/** The SQS endpoint: `--sqs`, else SQS_ENDPOINT, else http://127.0.0.1:$SQS_PORT (4566). */
export function sqsEndpoint(flag: string | undefined, env: Env, command: string): string {
  if (flag !== undefined) return checkUrl(flag, '--sqs', command);
  const endpoint = env.SQS_ENDPOINT?.trim();
  if (endpoint) return checkUrl(endpoint, 'SQS_ENDPOINT', command);
  return `http://127.0.0.1:${port(env.SQS_PORT, 'SQS_PORT', DEFAULT_SQS_PORT)}`;
}

/**
 * The local DynamoDB endpoint: `--dynamodb`, else DYNAMODB_ENDPOINT, else
 * http://127.0.0.1:$DYNAMODB_PORT (8000), as `npm start` uses it.
 */
export function dynamoEndpoint(flag: string | undefined, env: Env, command: string): string {
  if (flag !== undefined) return checkUrl(flag, '--dynamodb', command);
  const endpoint = env.DYNAMODB_ENDPOINT?.trim();
  if (endpoint) return checkUrl(endpoint, 'DYNAMODB_ENDPOINT', command);
  return `http://127.0.0.1:${port(env.DYNAMODB_PORT, 'DYNAMODB_PORT', DEFAULT_DYNAMODB_PORT)}`;
}

/**
 * The ledger table: `--table`, else TABLE_NAME; locally `ledger` by default. On AWS it must be
 * named (the stateful stack's `TableName` output): a guessed name could be another stage's.
 */
export function tableName(flag: string | undefined, env: Env, aws: boolean, command: string) {
  const name = flag ?? (env.TABLE_NAME?.trim() || undefined);
  if (name !== undefined) {
    if (!/^[A-Za-z0-9_.-]{3,255}$/.test(name)) {
      throw new UsageError(`--table must be a DynamoDB table name (got "${name}")`, command);
    }
    return name;
  }
  if (aws) {
    throw new UsageError('--table is required with --aws (the stack output TableName)', command);
  }
  return DEFAULT_TABLE_NAME;
}

/** The application callbacks are reported as: `--app`, else CALLBACK_APPLICATION_ID, else export-worker. */
export function applicationId(flag: string | undefined, env: Env): string {
  return flag ?? (env.CALLBACK_APPLICATION_ID?.trim() || DEFAULT_CALLBACK_APPLICATION_ID);
}

/**
 * The secrets that sign for `app`: `--secret`, else the application's entry in CALLBACK_SECRETS
 * (every active one, as a sender does during rotation), else the stack's demo secret for the
 * demo application. Throws a readable error when there is none.
 */
export function secretsFor(app: string, flag: string | undefined, env: Env): string[] {
  if (flag !== undefined) {
    if (flag === '') throw new UsageError('--secret must not be empty');
    return [flag];
  }
  let map: SecretMap;
  try {
    map = parseSecretMap(localCallbackSecretsJson(env));
  } catch (error) {
    throw new CliError(`CALLBACK_SECRETS: ${messageOf(error)}`);
  }
  const secrets = secretsOf(map, app);
  if (secrets.length === 0) {
    const from = env.CALLBACK_SECRETS?.trim() ? 'CALLBACK_SECRETS' : 'the local demo default';
    throw new CliError(
      `no callback secret for application "${app}" in ${from}; pass --secret or set CALLBACK_SECRETS`,
    );
  }
  return [...secrets];
}

function port(value: string | undefined, name: string, fallback: number): number {
  const raw = value?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 65_535) {
    throw new CliError(`${name} must be a port number between 1 and 65535 (got "${value}")`);
  }
  return n;
}

function checkUrl(value: string, name: string, command: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `${name} must be a URL such as http://127.0.0.1:3000 (got "${value}")`,
      command,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${name} must be an http(s) URL (got "${value}")`, command);
  }
  return value.replace(/\/+$/, '');
}

/**
 * What every command on one account over the API takes: `--url` (or the stack's), `--principal`
 * (default `demo`) and the required `--account`.
 */
export function accountTarget(
  values: Values,
  env: Env,
  command: string,
): { readonly url: string; readonly principal: string; readonly accountId: string } {
  const accountId = uuidOption(values, 'account', command);
  if (accountId === undefined) throw new UsageError('--account is required', command);
  return {
    url: apiUrl(stringOption(values, 'url'), env, command),
    principal: stringOption(values, 'principal') ?? 'demo',
    accountId,
  };
}
