/**
 * The contention layer as a process of its own, so its timing does not share an event loop with
 * the code under test (the bench runs it this way):
 *   node --import tsx local/services/contention/main.ts <upstream> [writeUnitsPerSecond]
 * It prints its endpoint on one line, serves its stats at GET /contention/stats and stops on
 * SIGTERM or SIGINT.
 */
import { startContentionLayer } from './proxy';

const [upstream, units] = process.argv.slice(2);
if (!upstream) {
  process.stderr.write('usage: main.ts <upstream DynamoDB endpoint> [write units per second]\n');
  process.exit(2);
}
const layer = await startContentionLayer({
  upstream,
  ...(units ? { writeUnitsPerSecond: Number(units) } : {}),
});
process.stdout.write(`${layer.endpoint}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void layer.close().then(() => process.exit(0));
  });
}
