/** The cold-start section of docs/benchmarks.md: bundle sizes and module init per function. */
import { barChart } from '../charts';
import { color, PROBE_COLOR, row } from '../report-format';
import { type BenchResults, SIDES } from '../run-bench';
import { formatSpread, pairedRatio, percentile, spread } from '../stats';
import { functionName } from '../verdicts';

export function coldStartSection(results: BenchResults, charts: Map<string, string>): string[] {
  const lines = [
    '## Cold start',
    '',
    `Each bundle as CDK builds it (the shared function construct), imported by ${results.settings.initProcesses} fresh`,
    '`node` processes per bundle, bundles alternating; init = time of the `import()`. Probes are',
    'parts bundled alone the same way (bench/probes/), to show where init time goes.',
    '',
    row(['function', 'bundle KB', 'budget KB', 'NODE_OPTIONS', 'init ms, median (min–max)']),
    row(['---', '---', '---', '---', '---']),
  ];
  const bars = results.coldStart.map((b) => {
    const s = spread(b.initMs);
    lines.push(
      row([
        functionName(b),
        (b.bytes / 1024).toFixed(0),
        b.budgetBytes === undefined ? '–' : b.budgetBytes / 1024,
        b.nodeOptions ? `\`${b.nodeOptions}\`` : '–',
        formatSpread(s, 1),
      ]),
    );
    return {
      // The bar's colour says "probe"; the label keeps to the probe's name.
      label: b.name.startsWith('probe:') ? b.name.slice('probe:'.length) : functionName(b),
      bars: [
        {
          name:
            b.name === 'powertools'
              ? SIDES.powertools
              : b.name.startsWith('probe:')
                ? 'probe'
                : SIDES.ours,
          color:
            b.name === 'powertools'
              ? color(SIDES.powertools)
              : b.name.startsWith('probe:')
                ? PROBE_COLOR
                : color(SIDES.ours),
          value: s.median,
          // Quartiles: a few processes slowed by other work would stretch a min–max whisker.
          min: percentile(b.initMs, 25),
          max: percentile(b.initMs, 75),
        },
      ],
    };
  });
  charts.set(
    'cold-start.svg',
    barChart({
      title: 'Module init (median of fresh processes, whisker: 25th–75th percentile)',
      yLabel: 'ms',
      groups: bars,
    }),
  );
  const baseline = results.coldStart.find((b) => b.name === 'powertools');
  const client = results.coldStart.find((b) => b.name === 'probe:dynamodb-client');
  if (baseline && client) {
    lines.push(
      '',
      `The DynamoDB client alone (probe: the client built at init, as every function and the baseline do) takes ${formatSpread(pairedRatio(client.initMs, baseline.initMs))}× the Powertools handler's init`,
      '(median of per-process ratios, lowest–highest).',
    );
  }
  lines.push('', '![Module init](benchmarks/cold-start.svg)');
  return lines;
}
