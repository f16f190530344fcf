/**
 * npm run bench — our hot paths against Powertools idempotency and a sequential SQS loop, side by
 * side over a latency-injecting proxy, plus bundle sizes and module init. Prints every ratio with
 * its target and writes docs/benchmarks.md with SVG charts. Timing lives here, never in tests.
 * Needs Java 17+ (DynamoDB Local). `BENCH_SMOKE=1` runs tiny counts into a temporary directory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeReport } from './report';
import { runBench } from './run-bench';
import { benchSettings, machineInfo } from './settings';
import { formatSpread, spread } from './stats';
import { verdictLine, verdicts } from './verdicts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const settings = benchSettings(process.env);
const docsDir =
  process.env.BENCH_DOCS_DIR ??
  (settings.smoke
    ? mkdtempSync(join(tmpdir(), 'ledger-bench-'))
    : resolve(import.meta.dirname, '../docs'));
const results = await runBench({
  settings,
  machine: machineInfo(),
  ...(process.env.DYNAMODB_ENDPOINT ? { dynamoEndpoint: process.env.DYNAMODB_ENDPOINT } : {}),
});
const judged = verdicts(results);
console.log(`\nRatios at ${settings.rttMs} ms modelled RTT, median (lowest–highest round):`);
for (const v of judged) console.log(verdictLine(v));
if (results.sqs.transactionCeiling.length > 0) {
  const ceiling = formatSpread(spread(results.sqs.transactionCeiling));
  console.log(`  (10 raw transactions at once vs one after another on this DynamoDB: ${ceiling}×)`);
}
console.log(`\nWrote ${writeReport(results, judged, docsDir)}`);
