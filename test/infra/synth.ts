import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type RawLedgerContext, resolveLedgerConfig } from '../../lib/config';
import { createLedgerStacks, type LedgerStacks } from '../../lib/ledger-app';

export interface SynthesizedLedger {
  readonly stacks: LedgerStacks;
  readonly stateful: Template;
  readonly stateless: Template;
}

/**
 * Synthesizes both stacks from raw context exactly as `bin/app.ts` does, except that the HTTP
 * function gets stub code so no bundling happens, and CDK's built-in CloudFormation validation
 * (a WASM engine costing ~5 s per worker) is off. `bundling.test.ts` covers both for real.
 */
export function synthLedger(raw: RawLedgerContext = {}): SynthesizedLedger {
  const app = new App({ builtinCloudFormationValidation: false });
  const stacks = createLedgerStacks(app, resolveLedgerConfig(raw), {
    httpHandlerCode: lambda.Code.fromInline('export const handler = async () => ({});'),
  });
  return {
    stacks,
    stateful: Template.fromStack(stacks.stateful),
    stateless: Template.fromStack(stacks.stateless),
  };
}

type Resources = Record<string, { Properties?: Record<string, unknown> } | undefined>;

/** Properties of every resource of `type`, keyed by logical id. */
export function propertiesOf(
  template: Template,
  type: string,
): Record<string, Record<string, unknown>> {
  const found = template.findResources(type) as Resources;
  const result: Record<string, Record<string, unknown>> = {};
  for (const [id, resource] of Object.entries(found)) result[id] = resource?.Properties ?? {};
  return result;
}

/** The single logical id of `type` in `template`; fails if there is not exactly one. */
export function onlyLogicalId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  if (ids.length !== 1 || ids[0] === undefined) {
    throw new Error(`expected exactly one ${type}, found ${ids.length}`);
  }
  return ids[0];
}

/** Properties of the resource `logicalId`; fails if it is not a `type` in `template`. */
export function propertiesOfId(
  template: Template,
  type: string,
  logicalId: string,
): Record<string, unknown> {
  const properties = propertiesOf(template, type)[logicalId];
  if (!properties) throw new Error(`no ${type} with logical id ${logicalId}`);
  return properties;
}

/**
 * Timeout for hooks that synthesize: the infra project sets no hookTimeout (default 10 s), and
 * bundling plus CDK's validation engine can exceed that on a busy 2-core runner.
 */
export const SYNTH_HOOK_TIMEOUT_MS = 60_000;
