import { describeError } from '../functions/domain/shared/log';
import type { CliContext } from './command';
import { CliError, UsageError } from './errors';
import { COMMANDS } from './registry';

/** The usage and the command list, from the registry alone: no command module is loaded. */
export function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: npm run cli -- <command> [options]

A small CLI for the local stack (\`npm start\`): the export loop, signed callbacks, ledger events
and the queues.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run \`npm run cli -- <command> --help\` for a command's options. Endpoints come from --url / --sqs,
else PORT / SQS_PORT / SQS_ENDPOINT (as for npm start), else http://127.0.0.1:3000 and :4566.

Start with:  npm start   (in another terminal), then   npm run cli -- demo`;
}

/**
 * Runs one command line; resolves the exit code and never throws. Loads only the command it
 * runs (or whose help it prints).
 */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    ctx.err(overview());
    return 2;
  }
  const help = name === '--help' || name === '-h' || name === 'help';
  const entry = COMMANDS.find((c) => c.name === (help ? rest[0] : name));
  if (!entry) {
    if (help) {
      ctx.out(overview());
      return 0;
    }
    ctx.err(`error: unknown command "${name}"\n`);
    ctx.err(overview());
    return 2;
  }
  try {
    const command = await entry.load();
    if (help) {
      ctx.out(command.help);
      return 0;
    }
    return await command.run(rest, ctx);
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.err(`error: ${error.message}`);
      ctx.err(`Run \`npm run cli -- ${error.command ?? entry.name} --help\` for the options.`);
      return error.exitCode;
    }
    if (error instanceof CliError) {
      ctx.err(`error: ${error.message}`);
      return error.exitCode;
    }
    if (ctx.signal.aborted) return 130;
    ctx.err(`error: ${describeError(error)}`);
    return 1;
  }
}
