import { DEFAULT_CALLBACK_APPLICATION_ID } from './retention';

/**
 * The local stack's defaults (contract §9): `npm start` listens on them and the CLI finds the
 * stack by them, so both read them from here.
 */
export const DEFAULT_PORT = 3000;
export const DEFAULT_DYNAMODB_PORT = 8000;
export const DEFAULT_SQS_PORT = 4566;
export const DEFAULT_TABLE_NAME = 'ledger';
/** Pause between two local sweeps of due holds and executions (contract §11, §12). */
export const DEFAULT_SWEEP_INTERVAL_SECONDS = 2;
/** `npm start` runs the reconciler this often (docs/contract.md §19; hourly on AWS). */
export const DEFAULT_RECONCILE_INTERVAL_SECONDS = 30;

/** Credentials and region DynamoDB Local and the SQS emulator accept; they never reach AWS. */
export const LOCAL_AWS = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
} as const;

/** The local stack's demo application and its signing secret (printed at start; never for AWS). */
export const DEMO_CALLBACK_SECRET = 'local-demo-secret-0123456789abcdef';

/** `CALLBACK_SECRETS` when set, else the demo application with the demo secret. */
export function localCallbackSecretsJson(env: Record<string, string | undefined>): string {
  const given = env.CALLBACK_SECRETS?.trim();
  return given
    ? given
    : JSON.stringify({ [DEFAULT_CALLBACK_APPLICATION_ID]: [DEMO_CALLBACK_SECRET] });
}

/**
 * The local stack's identity (docs/contract.md §2): it reads the caller from this header and
 * hands it to the handler as a JWT `sub`. A deployed API never reads it.
 */
export const LOCAL_PRINCIPAL_HEADER = 'X-Principal-Id';
export const LOCAL_PRINCIPAL_MAX_LENGTH = 128;
/** The characters a local principal may hold, as people read them. */
export const LOCAL_PRINCIPAL_CHARACTERS = 'A-Z a-z 0-9 . _ : @ -';
export const LOCAL_PRINCIPAL_PATTERN = /^[A-Za-z0-9._:@-]{1,128}$/;
/** The principal of the README walkthrough, pre-filled on the local /docs page. */
export const DEMO_PRINCIPAL = 'alice';
