import type { Finding } from './check/check';
import type { Plan } from './plan';

/**
 * The shortest operation sequence that still fails: the shortest failing prefix first (binary
 * search), then its last operation alone, else every operation that can go (with those that
 * name it: a capture goes with its hold) is left out, one at a time from the end. Each try replays the subset with the same seed
 * on fresh accounts; `budget` bounds the replays. Shrinking is best effort: a failure that
 * needed the kill or the outage may not show again without them, and then the sequence it
 * returns is the whole prefix.
 */
export async function shrink(
  plan: Plan,
  found: readonly Finding[],
  budget: number,
  fails: (only: ReadonlySet<number>) => Promise<boolean>,
  log: (line: string) => void,
): Promise<number[]> {
  const all = plan.operations.map((_, i) => i);
  if (budget <= 0) return all;
  let left = budget;
  const tryOnly = async (only: readonly number[]) => {
    left--;
    return fails(new Set(only));
  };
  const named = found.flatMap((f) => f.operations);
  let lo = named.length > 0 ? Math.max(...named) + 1 : 1;
  let hi = all.length;
  while (lo < hi && left > 0) {
    const mid = Math.floor((lo + hi) / 2);
    if (await tryOnly(all.slice(0, mid))) hi = mid;
    else lo = mid + 1;
  }
  let kept = all.slice(0, hi);
  // The shortest failing prefix ends with an operation the failure needs: alone (with what it
  // names), it may be enough.
  const last = kept[kept.length - 1];
  if (last !== undefined && left > 0) {
    const alone = kept.filter((j) => j === last || dependsOn(plan, last, j));
    if (alone.length < kept.length && (await tryOnly(alone))) kept = alone;
  }
  for (let i = kept.length - 1; i >= 0 && left > 0; i--) {
    const candidate = kept[i];
    if (candidate === undefined) continue;
    const without = kept.filter((j) => j !== candidate && !dependsOn(plan, j, candidate));
    if (await tryOnly(without)) {
      kept = without;
      i = Math.min(i, kept.length);
    }
  }
  log(`shrunk to ${kept.length} operation(s) in ${budget - left} replay(s): ${kept.join(', ')}`);
  return kept;
}

function dependsOn(plan: Plan, index: number, on: number): boolean {
  const op = plan.operations[index];
  if (!op) return false;
  if (op.kind === 'capture' || op.kind === 'void') return op.hold === on;
  if (op.kind === 'reverse') return op.of === on;
  return false;
}
