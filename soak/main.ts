/**
 * `npm run soak -- --minutes N --seed S [--concurrency C] [--operations O] [--url U] [--shrink R]`
 * (docs/reliability.md): rounds of O seeded operations against the local stack under faults,
 * each held against the model, until N minutes are up or a round fails. Exit 1 on a finding,
 * with the seed and the shortest operation sequence that shows it.
 */
import { parseArgs } from 'node:util';
import { type SoakResult, soak } from './soak';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    concurrency: { type: 'string', default: '8' },
    operations: { type: 'string', default: '200' },
    url: { type: 'string' },
    sqs: { type: 'string' },
    'loss-rate': { type: 'string', default: '0.1' },
    shrink: { type: 'string', default: '24' },
    'keep-going': { type: 'boolean', default: false },
  },
});

const number = (name: string, value: string | undefined, min: number) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min)
    throw new Error(`--${name} must be a number ≥ ${min} (got ${value})`);
  return n;
};

const seed = number('seed', values.seed, 0);
console.log(`soak: seed ${seed}`);
const result = await soak({
  seed,
  minutes: number('minutes', values.minutes, 0),
  operations: number('operations', values.operations, 1),
  concurrency: number('concurrency', values.concurrency, 1),
  lossRate: number('loss-rate', values['loss-rate'], 0),
  shrinkBudget: number('shrink', values.shrink, 0),
  ...(values.url ? { url: values.url } : {}),
  ...(values.url && values.sqs ? { sqs: values.sqs } : {}),
  keepGoing: values['keep-going'] === true,
  log: (line) => console.log(line),
  tty: process.stdout.isTTY === true,
});
report(result);
process.exit(result.findings.length > 0 ? 1 : 0);

function report(r: SoakResult): void {
  const kinds = Object.entries(r.byKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(
    `soak: seed ${r.seed}, ${r.operations} operations in ${r.rounds} round(s), ${r.seconds} s`,
  );
  console.log(`operations by kind: ${kinds} (${r.exchanges} exchange(s) USD/EUR applied)`);
  console.log(
    `faults: ${r.faults.lostAnswers} lost answers, ${r.faults.kills} kills, ${r.faults.outages} DynamoDB outages, ${r.faults.retries} retries, ${r.faults.eventsSent} event messages (${r.faults.transientDeadLetters} dead-lettered as transient)`,
  );
  console.log(
    r.deepVerify
      ? `journal verify: ${r.verified} journal(s) read from the table`
      : 'journal verify: skipped (--url: a foreign stack; hash chains checked over HTTP only)',
  );
  if (r.findings.length === 0) {
    console.log(`checks: all passed (${r.checked} run(s) checked)`);
    return;
  }
  console.log(`FAILED (${r.findings.length} finding(s) in ${r.failures.length} round(s))`);
  for (const failure of r.failures) {
    console.log(`seed ${failure.plan.seed} (replay with --minutes 0 --seed ${failure.plan.seed}):`);
    for (const f of failure.findings.slice(0, 20)) console.log(`  ${f.check}: ${f.detail}`);
    console.log(`  shortest sequence (${failure.operations.length} operation(s)):`);
    for (const i of failure.operations)
      console.log(`    ${i}: ${JSON.stringify(failure.plan.operations[i])}`);
  }
}
