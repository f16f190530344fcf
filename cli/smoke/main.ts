/**
 * `npm run smoke -- --url <base> [--auth local|iam|jwt]`: the post-deploy conformance check
 * (docs/deployment.md). Prints a PASS/FAIL table; exits 1 when a check failed.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { runSmokeCommand } = await import('./run');

for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
const code = await runSmokeCommand(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
// Exit now: idle keep-alive sockets of fetch must not hold the process open.
process.exit(code);

export {};
