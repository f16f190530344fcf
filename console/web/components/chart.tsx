import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { JournalRow, MonitorRow } from '../../shared/api';
import { chartData } from './chart-data';
import { digitsOf, money, when } from './format';

const THRESHOLD_COLOURS = ['#7a3fb0', '#1a8a5a', '#a8331f'];

/**
 * Balance and available over time, one step per journal record (its after-values at its
 * commit time), and each monitor's threshold as a flat line. Records committed together and a
 * single record still draw a readable chart (./chart-data.ts). The caption says it in words.
 */
export function BalanceChart(props: {
  records: readonly JournalRow[];
  monitors: readonly MonitorRow[];
  currency: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const { records, monitors, currency } = props;
  useEffect(() => {
    const element = host.current;
    if (!element || records.length === 0) return;
    const data = chartData(records, monitors, digitsOf(currency), (v) => money(v, currency));
    // A balance holds until the next change: steps, not slopes.
    const steps = uPlot.paths.stepped?.({ align: 1 });
    const plot = new uPlot(
      {
        width: Math.max(320, element.clientWidth || 800),
        height: 260,
        scales: { x: { time: true, range: () => [data.range[0], data.range[1]] } },
        series: [
          {},
          // Points too: a single record, or records committed together, each stays visible.
          {
            label: `balance (${currency})`,
            stroke: '#1f5fa8',
            width: 2,
            paths: steps,
            points: { show: true, size: 7, fill: '#1f5fa8' },
          },
          {
            label: `available (${currency})`,
            stroke: '#c2571a',
            width: 2,
            dash: [6, 4],
            paths: steps,
            points: { show: true, size: 5, fill: '#c2571a' },
          },
          ...data.thresholds.map((t, i) => ({
            label: t.label,
            stroke: THRESHOLD_COLOURS[i % THRESHOLD_COLOURS.length],
            width: 1,
            dash: [2, 3],
            points: { show: false },
          })),
        ],
        axes: [{}, { size: 70 }],
      },
      [
        [...data.x],
        [...data.balance],
        [...data.available],
        ...data.thresholds.map((t) => [...t.y]),
      ],
      element,
    );
    return () => plot.destroy();
  }, [records, monitors, currency]);

  if (records.length === 0) {
    return <p class="empty">No journal records yet: the chart starts with the first change.</p>;
  }
  const first = records[0];
  const last = records[records.length - 1];
  return (
    <figure
      class="chart"
      data-testid="balance-chart"
      data-points={records.length}
      data-thresholds={monitors.length}
    >
      <div ref={host} role="img" aria-label="balance and available over time" />
      <figcaption>
        Balance over time from {records.length} journal record(s), {when(first?.committedAt)} to{' '}
        {when(last?.committedAt)}; last balance {last ? money(last.balanceAfter, currency) : '—'}
        {monitors.length > 0
          ? `; ${monitors.length} monitor threshold(s) drawn as dotted lines`
          : ''}
        .
      </figcaption>
    </figure>
  );
}
