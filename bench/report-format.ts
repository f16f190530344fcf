/** What every section of docs/benchmarks.md formats alike: table rows, spreads, side colours. */
import { SIDES } from './run-bench';
import { formatSpread, spread } from './stats';

const COLORS: Record<string, string> = {
  [SIDES.ours]: '#1f6fb4',
  [SIDES.oursCached]: '#8fb8de',
  [SIDES.powertools]: '#f28e2b',
  [SIDES.powertoolsCached]: '#f5c28f',
  [SIDES.sequential]: '#8c8c8c',
};

/** A side's colour in every chart; green for any side without one of its own. */
export const color = (side: string): string => COLORS[side] ?? '#59a14f';

/** The colour of a probe's bar (a part bundled alone, not a side). */
export const PROBE_COLOR = '#b0b0b0';

/** One Markdown table row. */
export const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;

/** Median (lowest–highest) of a measurement. */
export const ms = (values: readonly number[], digits?: number): string =>
  formatSpread(spread([...values]), digits);
