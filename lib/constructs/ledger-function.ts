import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * Prepended to the ESM bundle: CommonJS dependencies bundled by esbuild may still call
 * `require()` for Node built-ins, which does not exist in an ES module.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

export interface LedgerFunctionProps {
  /**
   * TypeScript entry file, absolute or relative to the working directory (the repo root
   * when run by the CDK CLI or vitest). Must export the handler named by `handler`.
   */
  readonly entry: string;

  /**
   * Exported handler function name in `entry`.
   * @default 'handler'
   */
  readonly handler?: string;

  /** What the function is for (shown in the console). @default - no description */
  readonly description?: string;

  /** Environment variables, merged with `NODE_OPTIONS=--enable-source-maps`. @default - none */
  readonly environment?: Readonly<Record<string, string>>;

  /**
   * Retention of the function's log group.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;

  /** @default 512 */
  readonly memorySize?: number;

  /** @default Duration.seconds(10) */
  readonly timeout?: Duration;

  /**
   * Pre-built code instead of bundling `entry` with esbuild. Only meant for infra tests
   * that assert on the template and do not want to pay for bundling; `handler` then names
   * `file.export` inside that code (`index.handler` when omitted).
   * @default - `entry` is bundled with the locally installed esbuild
   */
  readonly code?: lambda.Code;
}

/**
 * House style for every Lambda function: Node.js 22 on arm64, minified ESM bundle with
 * source maps, explicit log group with retention, 512 MB, 10 s.
 */
export class LedgerFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: LedgerFunctionProps) {
    // The log group is created before `super()` can run, so it is a sibling of the function.
    const logGroup = new logs.LogGroup(scope, `${id}LogGroup`, {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
    });
    const exportName = props.handler ?? 'handler';

    super(scope, id, {
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      logGroup,
      environment: {
        ...props.environment,
        NODE_OPTIONS: '--enable-source-maps',
      },
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
              target: 'node22',
              mainFields: ['module', 'main'],
              banner: ESM_REQUIRE_BANNER,
              minify: true,
              sourceMap: true,
              // Stack traces only need file/line mapping; keeps the bundle small.
              sourcesContent: false,
              // Use the esbuild from node_modules; never fall back to Docker.
              forceDockerBundling: false,
              // Ship the SDK versions the tests ran against, not whatever the runtime carries:
              // cancellation decoding relies on the exact exception classes and shapes.
              bundleAwsSDK: true,
            },
          }),
    });
  }
}
