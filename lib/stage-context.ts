import {
  DEFAULT_STAGE,
  isContextKey,
  LEDGER_CONTEXT_KEYS,
  type LedgerConfig,
  type LedgerContextKey,
  type RawLedgerContext,
  resolveLedgerConfig,
} from './config';
import { LedgerConfigError, STAGE_PATTERN, show } from './config-rules';

/** Context key of the per-stage blocks: `{ "<stage>": { "<key>": <value>, … }, … }`. */
export const STAGES_CONTEXT_KEY = 'stages';

/** Keys a stage block may set: every ledger key except `stage` itself. */
const STAGE_BLOCK_KEYS = LEDGER_CONTEXT_KEYS.filter((key) => key !== 'stage');

const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const blockError = (detail: string) =>
  new LedgerConfigError(`${STAGES_CONTEXT_KEY}${detail}`, STAGES_CONTEXT_KEY);

/**
 * Parses the `stages` context value: an object of stage name → block of ledger keys. Shape, stage
 * names and keys are checked here (a misspelt key would otherwise be ignored silently); values are
 * checked by {@link resolveLedgerConfig}.
 */
export function parseStageBlocks(value: unknown): ReadonlyMap<string, RawLedgerContext> {
  const blocks = new Map<string, RawLedgerContext>();
  if (!isSet(value)) return blocks;
  if (!isPlainObject(value)) {
    throw blockError(
      ` must be an object of stage name to context keys (set it in cdk.json, not with -c); got ${show(value)}`,
    );
  }
  for (const [stage, block] of Object.entries(value)) {
    if (!STAGE_PATTERN.test(stage)) {
      throw blockError(`: ${show(stage)} is not a valid stage name (${STAGE_PATTERN})`);
    }
    if (!isPlainObject(block)) {
      throw blockError(`.${stage} must be an object of context keys; got ${show(block)}`);
    }
    const raw: Partial<Record<LedgerContextKey, unknown>> = {};
    for (const [key, setting] of Object.entries(block)) {
      if (key === 'stage') {
        throw blockError(`.${stage} must not set stage: the block is chosen by it`);
      }
      if (!isContextKey(key)) {
        throw blockError(
          `.${stage}.${key} is not a context key of this app; known keys: ${STAGE_BLOCK_KEYS.join(', ')}`,
        );
      }
      raw[key] = setting;
    }
    blocks.set(stage, raw);
  }
  return blocks;
}

/** Reads every ledger context key through `lookup` (e.g. `app.node.tryGetContext`), top level only. */
export function readLedgerContext(lookup: (key: string) => unknown): RawLedgerContext {
  return Object.fromEntries(LEDGER_CONTEXT_KEYS.map((key) => [key, lookup(key)]));
}

/** Top-level values that are set win over the block's: `-c key=value` overrides a stage block. */
function mergeStageBlock(block: RawLedgerContext, topLevel: RawLedgerContext): RawLedgerContext {
  const fromTop = LEDGER_CONTEXT_KEYS.filter((key) => isSet(topLevel[key]));
  return { ...block, ...Object.fromEntries(fromTop.map((key) => [key, topLevel[key]])) };
}

/**
 * The deployment configuration from CDK context, as `bin/app.ts` builds it:
 *
 * 1. `stage` (top level, default `dev`) picks the block `stages.<stage>`, if there is one;
 * 2. each key is taken from the top level when set there (`-c key=value`, or the top level of
 *    `cdk.json`), else from that block, else from the built-in default;
 * 3. the result is validated by {@link resolveLedgerConfig};
 * 4. every other stage block is validated on its own, so a typo in `stages.prod` fails the
 *    synth of any stage (and CI) instead of the production deployment.
 *
 * Errors caused by a block value say so (`… (from stages.prod)`).
 */
export function ledgerConfigFromContext(lookup: (key: string) => unknown): LedgerConfig {
  const topLevel = readLedgerContext(lookup);
  const blocks = parseStageBlocks(lookup(STAGES_CONTEXT_KEY));
  const stage =
    typeof topLevel.stage === 'string' && topLevel.stage !== '' ? topLevel.stage : DEFAULT_STAGE;
  const block = blocks.get(stage) ?? {};
  const config = withErrorDetail(
    () => resolveLedgerConfig(mergeStageBlock(block, topLevel)),
    (error) => {
      const key = isContextKey(error.key) ? error.key : undefined;
      const fromBlock = key !== undefined && isSet(block[key]) && !isSet(topLevel[key]);
      return fromBlock ? `${error.detail} (from ${STAGES_CONTEXT_KEY}.${stage})` : error.detail;
    },
  );
  for (const [name, other] of blocks) {
    if (name === config.stage) continue;
    withErrorDetail(
      () => resolveLedgerConfig({ ...other, stage: name }),
      (error) => `${STAGES_CONTEXT_KEY}.${name}: ${error.detail}`,
    );
  }
  return config;
}

/** Runs `resolve`; a {@link LedgerConfigError} is thrown again with `detail` rewritten. */
function withErrorDetail<T>(resolve: () => T, detail: (error: LedgerConfigError) => string): T {
  try {
    return resolve();
  } catch (error) {
    if (!(error instanceof LedgerConfigError)) throw error;
    throw new LedgerConfigError(detail(error), error.key);
  }
}
