import { creditIntakeEnv } from './credit-intake/env';
import { dispatcherEnv } from './dispatcher/env';
import { eventsEnv } from './events/env';
import { exportWorkerEnv } from './export-worker/env';
import { journalProjectorEnv } from './journal-projector/env';
import { callbackSecretsEnv } from './shared/callback-secrets-env';
import {
  type FunctionConfigs,
  type FunctionName,
  loadConfig,
  type OwnConfig,
} from './shared/config';
import { type EnvSchema, envSchema } from './shared/env-rules';
import { sweeperEnv } from './sweeper/env';

/**
 * Every function's own variables in one place, for what looks at all functions at once (the
 * local stack's settings, tests). A Lambda handler imports its own `env.ts` only, so its bundle
 * carries no other function's schema.
 */
const none = envSchema({}, () => ({}));
export const FUNCTION_ENVS: { readonly [F in FunctionName]: EnvSchema<OwnConfig<F>> } = {
  http: callbackSecretsEnv,
  events: eventsEnv,
  dispatcher: dispatcherEnv,
  creditIntake: creditIntakeEnv,
  exportWorker: exportWorkerEnv,
  sweeper: sweeperEnv,
  reconciler: none,
  journalProjector: journalProjectorEnv,
  searchIndexer: none,
};

/** A function's own variables (queues, topics, stage); the local stack passes its emulators' own. */
export function functionSettings(fn: FunctionName): readonly string[] {
  return FUNCTION_ENVS[fn].variables;
}

/** `loadConfig` with the function named: its shared and own variables. */
export function loadFunctionConfig<F extends FunctionName>(
  env: Record<string, string | undefined>,
  fn: F,
): FunctionConfigs[F] {
  return loadConfig(env, FUNCTION_ENVS[fn] as EnvSchema<object>) as FunctionConfigs[F];
}
