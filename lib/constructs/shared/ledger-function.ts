import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { LEDGER_FUNCTION_TIMEOUT_SECONDS } from '../../../functions/contract/http';

/**
 * Prepended to the ESM bundle: CommonJS dependencies bundled by esbuild may still call
 * `require()` for Node built-ins, which does not exist in an ES module.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/**
 * SDK modules a function never loads, left out of the bundle behind their dynamic `import()`.
 * The credential providers only load when the environment holds no credentials (SSO, INI
 * profiles, processes, web identity, container/instance metadata). Lambda always sets the
 * `AWS_*` credential variables, so the default chain stops at `fromEnv` and these dynamic imports
 * never run; kept out of the bundle they save ~130 KB and ~25% of module init (docs/benchmarks.md).
 * Should one ever run, the Lambda runtime's own SDK resolves it.
 */
const EVENT_STREAMS = '@smithy/core/event-streams';

export const NEVER_LOADED_ON_LAMBDA = [
  '@aws-sdk/credential-provider-http',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-web-identity',
  '@smithy/credential-provider-imds',
  // Event streams (S3 SelectObjectContent and the like): the protocol imports them on the first
  // such operation only, and no function calls one (~12 KB with the checksums they pull in).
  EVENT_STREAMS,
];

/**
 * Minified bundle budget per function (docs/benchmarks.md): the export worker's larger (S3
 * multipart); the HTTP function back at 500 KB since issue 50 (its documents a file beside the
 * bundle, no Powertools, no Secrets Manager client).
 */
export const BUNDLE_BUDGET_BYTES = {
  default: 500 * 1024,
  http: 500 * 1024,
  exportWorker: 700 * 1024,
} as const;

/** `functions/handlers/<name>/handler.ts`, resolved from this file so the working directory does not matter. */
export const handlerEntry = (name: string): string =>
  fileURLToPath(new URL(`../../../functions/handlers/${name}/handler.ts`, import.meta.url));

/**
 * Functions whose SDK clients import event streams statically at load (S3's, in the export
 * worker): left out, the bundle would fail at init, for an ES module never resolves the Lambda
 * runtime's own SDK (test/integration/bench-smoke-more.test.ts imports every bundle).
 */
const LOADS_EVENT_STREAMS = ['export-worker'];

/** What the bundle of `entry` leaves out: {@link NEVER_LOADED_ON_LAMBDA}, less what it loads. */
export const externalModulesOf = (entry: string): string[] =>
  LOADS_EVENT_STREAMS.some((name) => entry === handlerEntry(name))
    ? NEVER_LOADED_ON_LAMBDA.filter((name) => name !== EVENT_STREAMS)
    : [...NEVER_LOADED_ON_LAMBDA];

/**
 * What every function of a stack shares: the stack builds it once and hands it to each function
 * construct, which spreads it into its {@link LedgerFunction}.
 */
export interface LedgerFunctionDefaults {
  /**
   * Retention of the function's log group.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;

  /**
   * What happens to the function's log group when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;

  /**
   * Pre-built code instead of bundling `entry` with esbuild. Only meant for infra tests
   * that assert on the template and do not want to pay for bundling; `handler` then names
   * `file.export` inside that code (`index.handler` when omitted).
   * @default - `entry` is bundled with the locally installed esbuild
   */
  readonly code?: lambda.Code;
}

export interface LedgerFunctionProps extends LedgerFunctionDefaults {
  /**
   * TypeScript entry file (see {@link handlerEntry}); must export the handler named by
   * `handler`.
   */
  readonly entry: string;

  /**
   * Exported handler function name in `entry`.
   * @default 'handler'
   */
  readonly handler?: string;

  /** What the function is for (shown in the console). @default - no description */
  readonly description?: string;

  /** Environment variables. @default - none */
  readonly environment?: Readonly<Record<string, string>>;

  /**
   * Concurrent executions reserved for (and capped at) this function.
   * @default - none reserved: the function draws from the account's unreserved pool
   */
  readonly reservedConcurrentExecutions?: number;

  /** @default 512 */
  readonly memorySize?: number;

  /** @default LEDGER_FUNCTION_TIMEOUT (10 s) */
  readonly timeout?: Duration;

  /**
   * Files copied beside `index.mjs` after bundling, under their own names: what the function
   * reads at run time instead of carrying it in the bundle (the HTTP function's documents).
   * @default - none
   */
  readonly besideBundle?: readonly string[];
}

/** The shell commands that copy `files` into the bundle's directory. */
const copyInto = (files: readonly string[], outputDir: string): string[] =>
  files.map((file) => `cp ${JSON.stringify(file)} ${JSON.stringify(`${outputDir}/`)}`);

/** The runtime of every function; the bundles target it ({@link BUNDLE_TARGET}). */
const LEDGER_RUNTIME = lambda.Runtime.NODEJS_22_X;

/** esbuild's target and package fields for every bundle (bench/cold-start/where.ts bundles alike). */
export const BUNDLE_TARGET = 'node22';
export const BUNDLE_MAIN_FIELDS = ['module', 'main'];

/**
 * Timeout of the HTTP and dispatcher functions. A stalled DynamoDB call gives up well before it
 * (`MAX_DYNAMODB_CALL_MS`, functions/dynamodb/table/client.ts), so a caller gets our
 * `503 unavailable` with Retry-After rather than API Gateway's bare 503; a unit test checks it.
 */
export const LEDGER_FUNCTION_TIMEOUT = Duration.seconds(LEDGER_FUNCTION_TIMEOUT_SECONDS);

/** Why the functions stay on {@link LEDGER_RUNTIME} although cdk-nag's AwsSolutions-L1 wants the newest. */
const RUNTIME_ACKNOWLEDGEMENT_REASON =
  'Node.js 22 is the runtime this service is built and tested for: the bundles target node22, the SDK versions are pinned and tested against it, and it is an AWS-supported LTS runtime. Moving to a newer runtime is a deliberate change (bundle target, tests, canary), not an automatic one.';

/**
 * House style for every Lambda function: Node.js 22 on arm64, minified ESM bundle with a
 * source map file (not enabled at runtime), explicit log group with retention, 512 MB, 10 s,
 * and its own role whose only built-in permission is writing to that log group (no `AWSLambdaBasicExecutionRole`, which
 * would allow creating and writing any log group in the account).
 */
export class LedgerFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: LedgerFunctionProps) {
    // The log group and the role are created before `super()` can run, so they are siblings of
    // the function.
    const logGroup = new logs.LogGroup(scope, `${id}LogGroup`, {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    const role = new iam.Role(scope, `${id}ServiceRole`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${scope.node.path}/${id}`,
      inlinePolicies: {
        // The log group exists (above), so no logs:CreateLogGroup. Its ARN ends in `:*`, which
        // covers the group's log streams and nothing else.
        OwnLogGroup: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              sid: 'WriteOwnLogGroup',
              actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
              resources: [logGroup.logGroupArn],
            }),
          ],
        }),
      },
    });
    const exportName = props.handler ?? 'handler';

    super(scope, id, {
      description: props.description,
      runtime: LEDGER_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? LEDGER_FUNCTION_TIMEOUT,
      role,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      logGroup,
      // No `NODE_OPTIONS=--enable-source-maps`: Node would parse the map at every cold start
      // (~15% of module init) while our logs carry error names and messages, never stack traces.
      // The map still ships beside the bundle to decode a runtime-printed trace by hand.
      environment: { ...props.environment },
      ...(props.code
        ? {
            code: props.code,
            handler: exportName.includes('.') ? exportName : `index.${exportName}`,
          }
        : {
            entry: props.entry,
            handler: exportName,
            bundling: {
              format: OutputFormat.ESM,
              target: BUNDLE_TARGET,
              mainFields: BUNDLE_MAIN_FIELDS,
              banner: ESM_REQUIRE_BANNER,
              minify: true,
              sourceMap: true,
              // Stack traces only need file/line mapping; keeps the bundle small.
              sourcesContent: false,
              // Use the esbuild from node_modules; never fall back to Docker.
              forceDockerBundling: false,
              // Warnings and errors only: esbuild's CLI prints a size summary per bundle
              // otherwise (its default is info, whatever CDK documents).
              logLevel: LogLevel.WARNING,
              // Ship the SDK versions the tests ran against, not whatever the runtime carries:
              // cancellation decoding relies on the exact exception classes and shapes.
              bundleAwsSDK: true,
              externalModules: externalModulesOf(props.entry),
              ...(props.besideBundle?.length
                ? {
                    commandHooks: {
                      beforeBundling: () => [],
                      beforeInstall: () => [],
                      afterBundling: (_input: string, outputDir: string) =>
                        copyInto(props.besideBundle ?? [], outputDir),
                    },
                  }
                : {}),
            },
          }),
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: RUNTIME_ACKNOWLEDGEMENT_REASON,
    });
  }

  /** Least privilege in one line: exactly `actions` on exactly `resources`, named by `sid`. */
  allow(
    sid: string,
    actions: readonly string[],
    resources: readonly string[],
    conditions?: Record<string, Record<string, string[]>>,
  ): void {
    this.addToRolePolicy(
      new iam.PolicyStatement({
        sid,
        actions: [...actions],
        resources: [...resources],
        ...(conditions ? { conditions } : {}),
      }),
    );
  }

  /**
   * Acknowledges cdk-nag's AwsSolutions-IAM5 finding for exactly one wildcard resource of this
   * function's role (e.g. the objects under a prefix), under the id cdk-nag gives it.
   */
  acknowledgeWildcardResource(resource: string, reason: string): void {
    const flat = flattenReference(Stack.of(this).resolve(resource));
    if (this.role) {
      Validations.of(this.role).acknowledge({ id: `AwsSolutions-IAM5[Resource::${flat}]`, reason });
    }
  }
}

/** A resolved ARN as cdk-nag prints it: `Ref`s as `<Name>`, `Fn::Join`s joined. */
function flattenReference(node: unknown): string {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object') {
    const join = (node as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    if (join) return join[1].map(flattenReference).join(join[0]);
    const ref = (node as { Ref?: unknown }).Ref;
    if (typeof ref === 'string') return `<${ref}>`;
  }
  return JSON.stringify(node);
}
