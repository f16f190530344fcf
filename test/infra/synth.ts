import { App, CfnElement, Stack } from 'aws-cdk-lib';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { expect } from 'vitest';
import { addComplianceChecks } from '../../lib/compliance';
import { type RawLedgerContext, resolveLedgerConfig } from '../../lib/config';
import { createLedgerStacks, type LedgerStacks } from '../../lib/ledger-app';

export interface SynthesizedLedger {
  readonly app: App;
  readonly stacks: LedgerStacks;
  readonly stateful: Template;
  readonly stateless: Template;
}

export interface SynthOptions {
  /**
   * Register cdk-nag (`addComplianceChecks`, as `bin/app.ts` does): any unacknowledged finding
   * makes the synth throw with the report.
   * @default false
   */
  readonly compliance?: boolean;
}

/** Stub code for template-only tests: bundling is covered by `bundling.test.ts`. */
export const stubHandlerCode = (): lambda.Code =>
  lambda.Code.fromInline('export const handler = async () => ({});');

/** One synthesis per configuration per test file: templates are read-only once synthesized. */
const synthesized = new Map<string, SynthesizedLedger>();

/**
 * Synthesizes both stacks from raw context exactly as `bin/app.ts` does, except that the
 * functions get stub code so no bundling happens, and CDK's built-in CloudFormation validation
 * (a WASM engine costing ~5 s per worker) is off. `bundling.test.ts` covers both for real.
 * The same configuration asked for twice in a file is synthesized once.
 */
export function synthLedger(
  raw: RawLedgerContext = {},
  options: SynthOptions = {},
): SynthesizedLedger {
  const key = JSON.stringify([raw, options.compliance ?? false]);
  const cached = synthesized.get(key) ?? synthesizeLedger(raw, options);
  synthesized.set(key, cached);
  return cached;
}

function synthesizeLedger(raw: RawLedgerContext, options: SynthOptions): SynthesizedLedger {
  const app = new App({ builtinCloudFormationValidation: false });
  const stacks = createLedgerStacks(app, resolveLedgerConfig(raw), {
    handlerCode: stubHandlerCode(),
  });
  if (options.compliance) addComplianceChecks(app);
  return {
    app,
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

/** Logical id of a CloudFormation element, or of a construct's default child (e.g. a function). */
export function logicalIdOf(construct: IConstruct): string {
  const element = construct instanceof CfnElement ? construct : construct.node.defaultChild;
  if (!(element instanceof CfnElement)) {
    throw new Error(`${construct.node.path} has no CloudFormation resource`);
  }
  return Stack.of(element).getLogicalId(element);
}

/** Logical id of a function's execution role. */
export function roleIdOf(fn: lambda.IFunction): string {
  if (!fn.role) throw new Error(`${fn.node.path} has no role`);
  return logicalIdOf(fn.role);
}

/** One IAM policy statement as synthesized. */
export interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** Statements of every `AWS::IAM::Policy` in `template`, or only those attached to `roleId`. */
export function statementsOf(template: Template, roleId?: string): Statement[] {
  return Object.values(propertiesOf(template, 'AWS::IAM::Policy'))
    .filter(
      (p) =>
        roleId === undefined ||
        (p.Roles as { Ref?: string }[] | undefined)?.some((role) => role.Ref === roleId),
    )
    .flatMap((p) => (p.PolicyDocument as { Statement: Statement[] }).Statement);
}

/** Statements of every `AWS::IAM::Policy` in `template` that is NOT attached to `roleId`. */
export function statementsNotOf(template: Template, roleId: string): Statement[] {
  return Object.values(propertiesOf(template, 'AWS::IAM::Policy'))
    .filter(
      (p) => !(p.Roles as { Ref?: string }[] | undefined)?.some((role) => role.Ref === roleId),
    )
    .flatMap((p) => (p.PolicyDocument as { Statement: Statement[] }).Statement);
}

export const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every IAM statement of `template`: inline role policies and `AWS::IAM::Policy` documents. */
export function allStatementsOf(template: Template): Statement[] {
  const inline = Object.values(propertiesOf(template, 'AWS::IAM::Role')).flatMap((role) =>
    ((role.Policies as { PolicyDocument: { Statement: Statement[] } }[]) ?? []).flatMap(
      (policy) => policy.PolicyDocument.Statement,
    ),
  );
  return [...inline, ...statementsOf(template)];
}

/**
 * A dashboard body (`Fn::Join` of JSON text and tokens) as parsed JSON, every token replaced by
 * the string `<token>` (tokens only ever sit inside JSON strings).
 */
export function dashboardBodyOf(properties: Record<string, unknown>): {
  widgets: { type: string; properties: Record<string, unknown> }[];
} {
  const body = properties.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
  const text =
    typeof body === 'string'
      ? body
      : body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : '<token>')).join('');
  return JSON.parse(text);
}

/**
 * `{ 'Fn::ImportValue': name }` in the stateless stack → the stateful output's value (undefined
 * if no output exports `name`). Anything that is not an import is returned unchanged.
 */
export function exportedValue(ledger: SynthesizedLedger, imported: unknown): unknown {
  const name = (imported as { 'Fn::ImportValue'?: unknown } | null | undefined)?.[
    'Fn::ImportValue'
  ];
  if (typeof name !== 'string') return imported;
  const outputs = ledger.stateful.findOutputs('*') as Record<
    string,
    { Value: unknown; Export?: { Name: string } }
  >;
  return Object.values(outputs).find((o) => o.Export?.Name === name)?.Value;
}

/**
 * `value` as the stateless stack imports it: `{ 'Fn::ImportValue': <name> }`, where `<name>` is
 * the export of the stateful output whose value is `value` (fails if no output exports it).
 */
export function importOf(ledger: SynthesizedLedger, value: unknown): { 'Fn::ImportValue': string } {
  const name = new Capture();
  ledger.stateful.hasOutput('*', { Value: value, Export: { Name: name } });
  return { 'Fn::ImportValue': name.asString() };
}

/**
 * The role of `fn` in the stateless stack has one attached policy, and its statements are
 * exactly `statements`, in order (least privilege: nothing more, nothing else).
 */
export function expectRolePolicy(
  ledger: SynthesizedLedger,
  fn: lambda.IFunction,
  statements: readonly Record<string, unknown>[],
): void {
  const role = { Ref: roleIdOf(fn) };
  const policies = ledger.stateless.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([role]) },
  });
  expect(Object.keys(policies), fn.node.path).toHaveLength(1);
  ledger.stateless.hasResourceProperties('AWS::IAM::Policy', {
    Roles: [role],
    PolicyDocument: {
      Statement: Match.exact(statements.map((st) => ({ Effect: 'Allow', ...st }))),
    },
  });
}

/**
 * Timeout for hooks that synthesize: the infra project sets no hookTimeout (default 10 s), and
 * bundling plus CDK's validation engine can exceed that on a busy 2-core runner.
 */
export const SYNTH_HOOK_TIMEOUT_MS = 60_000;

/** The dev stage's export bucket name, built from pseudo parameters (no cross-stack export). */
export const EXPORT_BUCKET_NAME = {
  'Fn::Join': ['', ['dev-ledger-exports-', { Ref: 'AWS::AccountId' }, '-', { Ref: 'AWS::Region' }]],
};
/** The parts of its ARN, as `Fn::Join` lists them. */
export const EXPORT_BUCKET_ARN = [
  'arn:',
  { Ref: 'AWS::Partition' },
  ':s3:::dev-ledger-exports-',
  { Ref: 'AWS::AccountId' },
  '-',
  { Ref: 'AWS::Region' },
];

/** The topic's policy denies every request that is not over TLS (`aws:SecureTransport`). */
export function expectTlsOnlyTopic(template: Template, topicId: string): void {
  template.hasResourceProperties('AWS::SNS::TopicPolicy', {
    Topics: [{ Ref: topicId }],
    PolicyDocument: {
      Statement: Match.arrayWith([
        Match.objectLike({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      ]),
    },
  });
}

/** The callback signing secret's logical id (the stateful stack also holds webhooks' sealing key). */
export function callbackSecretId(template: Template): string {
  const ids = Object.keys(template.findResources('AWS::SecretsManager::Secret')).filter((id) =>
    id.startsWith('CallbackSecrets'),
  );
  if (ids.length !== 1 || ids[0] === undefined) {
    throw new Error(`expected exactly one callback secret, found ${ids.length}`);
  }
  return ids[0];
}
