/**
 * `npm run console -- [--aws --table <name> --stage <stage>]`: the operator console on loopback
 * (docs/console.md), against the local stack by default or a deployed stage with the
 * operator's AWS credentials (like `npm run cli -- reconcile --aws`). Ctrl-C stops it.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { CliError, UsageError } from '../../cli/errors';
import { withOperatorDynamo } from '../../cli/operator-dynamo';
import { sqsClient } from '../../cli/sqs';
import { DEFAULT_INBOX_RETENTION_SECONDS } from '../../functions/contract/retention';
import { describeError } from '../../functions/domain/shared/log';
import { consoleUrl } from '../shared/api';
import { CONSOLE_HELP, type ConsoleArgs, parseConsoleArgs } from './args';
import { composeConsole, osUser } from './compose';
import { startConsoleServer } from './http/server';
import { deadLetterQueueRefs } from './queues/refs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

async function serve(args: ConsoleArgs): Promise<void> {
  const sqs = args.aws ? new SQSClient({ maxAttempts: 6 }) : sqsClient(args.sqs);
  try {
    await withOperatorDynamo(args, async (dynamo) => {
      const { handler, token } = await composeConsole({
        dynamo,
        sqs,
        tableName: args.table,
        deadLetterQueues: await deadLetterQueueRefs(sqs, args.sqs || 'AWS', args.queuePrefix),
        gapRefetchAfterSeconds: args.gapRefetchAfterSeconds,
        inboxRetentionSeconds: DEFAULT_INBOX_RETENTION_SECONDS,
        log: (line) => out(`[console] ${line}`),
      });
      const running = await startConsoleServer({
        handler,
        host: args.host,
        port: args.port,
        log: (line) => out(`[console] ${line}`),
      });
      out(
        `operator console ${consoleUrl(running.url.replace(/\/console\/$/, ''), token)} (table ${args.table}${args.aws ? ', AWS' : `, ${args.dynamodb}`}; actions as OS user ${osUser()})`,
      );
      out('ready');
      await new Promise<void>((resolve) => {
        for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
          process.once(signal, resolve);
      });
      out('stopping the console...');
      await running.close();
    });
  } finally {
    sqs.destroy();
  }
}

async function main(): Promise<number> {
  try {
    const args = parseConsoleArgs(process.argv.slice(2), process.env);
    if (args.help) {
      out(CONSOLE_HELP);
      return 0;
    }
    await serve(args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`npm run console: ${error.message} (see npm run console -- --help)`);
      return 2;
    }
    err(`npm run console: ${error instanceof CliError ? error.message : describeError(error)}`);
    return 1;
  }
}

process.exit(await main());
