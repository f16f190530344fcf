/**
 * `npm run cli -- <command> [options]`: the local stack's CLI (see cli/run.ts for the commands).
 * Ctrl-C once stops the command cleanly (a worker hands its job back, tail releases what it
 * holds); a second Ctrl-C exits at once.
 */
// The SDK warns on Node 20 about releases after January 2027; that is noise for a CLI user.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { runCli } = await import('./run');

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  });
}
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  fetch: globalThis.fetch,
  signal: controller.signal,
});
// Exit now: idle keep-alive sockets of fetch must not hold the process open.
process.exit(code);

export {};
