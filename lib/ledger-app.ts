import { type App, type Environment, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { LedgerConfig } from './config';
import { EVENTS_CONSUMER_TIMEOUT } from './events-timing';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

export interface LedgerStacks {
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

export interface LedgerStacksOptions {
  /** @default - environment-agnostic stacks */
  readonly env?: Environment;
  /** Test-only: one pre-built code for every function, no esbuild. @default - real bundling */
  readonly handlerCode?: lambda.Code;
}

/** Prefix of every name a stage gives out (stacks, alarms, topic, dashboard). */
export const stagePrefix = (stage: string): string => `idempotent-ledger-${stage}`;

/** Stack name prefix; stage keeps several deployments apart in one account. */
export const stackName = (stage: string, kind: 'stateful' | 'stateless'): string =>
  `${stagePrefix(stage)}-${kind}`;

/** Wires both stacks from a validated config. Shared by `bin/app.ts` and the infra tests. */
export function createLedgerStacks(
  app: App,
  config: LedgerConfig,
  options: LedgerStacksOptions = {},
): LedgerStacks {
  const tags = { project: 'idempotent-ledger', stage: config.stage };
  // One value for both sides: the consumer runs with it, the queue's visibility derives from it.
  const eventsConsumerTimeout = EVENTS_CONSUMER_TIMEOUT;
  const removalPolicy =
    config.removalPolicy === 'retain' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

  const stateful = new StatefulStack(app, stackName(config.stage, 'stateful'), {
    env: options.env,
    description: `idempotent-ledger (${config.stage}): data resources`,
    tags,
    deletionProtection: config.deletionProtection,
    accountDirectoryIndexes: config.accountDirectoryIndexes,
    removalPolicy,
    // SQS names are unique per account and region: stages sharing an account must not collide.
    queueNamePrefix: `${config.stage}-`,
    eventsConsumerTimeout,
    callbackApplicationId: config.callbackApplicationId,
    exportRetentionDays: config.exportRetentionDays,
  });

  const stateless = new StatelessStack(app, stackName(config.stage, 'stateless'), {
    env: options.env,
    description: `idempotent-ledger (${config.stage}): functions, HTTP API, events consumer, outbox dispatcher, journal projector, export worker and sweeper`,
    tags,
    stateful,
    config,
    namePrefix: stagePrefix(config.stage),
    eventsConsumerTimeout,
    handlerCode: options.handlerCode,
  });
  // Passing `stateful.table` already makes the stateless stack depend on the stateful one.

  return { stateful, stateless };
}
