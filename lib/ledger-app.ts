import type { App, Environment } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { LedgerConfig } from './config';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

export interface LedgerStacks {
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

export interface LedgerStacksOptions {
  /** @default - environment-agnostic stacks */
  readonly env?: Environment;
  /** Test-only: skip esbuild for the HTTP function. @default - real bundling */
  readonly httpHandlerCode?: lambda.Code;
}

/** Stack name prefix; stage keeps several deployments apart in one account. */
export const stackName = (stage: string, kind: 'stateful' | 'stateless'): string =>
  `idempotent-ledger-${stage}-${kind}`;

/** Wires both stacks from a validated config. Shared by `bin/app.ts` and the infra tests. */
export function createLedgerStacks(
  app: App,
  config: LedgerConfig,
  options: LedgerStacksOptions = {},
): LedgerStacks {
  const tags = { project: 'idempotent-ledger', stage: config.stage };

  const stateful = new StatefulStack(app, stackName(config.stage, 'stateful'), {
    env: options.env,
    description: `idempotent-ledger (${config.stage}): data resources`,
    tags,
    deletionProtection: config.deletionProtection,
  });

  const stateless = new StatelessStack(app, stackName(config.stage, 'stateless'), {
    env: options.env,
    description: `idempotent-ledger (${config.stage}): functions and HTTP API`,
    tags,
    table: stateful.table,
    auth: config.auth,
    idempotencyRetentionSeconds: config.idempotencyRetentionSeconds,
    inboxRetentionSeconds: config.inboxRetentionSeconds,
    exportFee: config.exportFee,
    httpHandlerCode: options.httpHandlerCode,
  });
  // Passing `stateful.table` already makes the stateless stack depend on the stateful one.

  return { stateful, stateless };
}
