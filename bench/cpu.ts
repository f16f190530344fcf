/**
 * CPU time a measured stretch costs, split between the bench process (every side's handler,
 * the SDK, the latency proxy) and DynamoDB Local's JVM. On a machine where the two share a
 * couple of cores, throughput is bounded by their sum per request rather than by round trips,
 * and this split says which side of the comparison pays more of it (docs/benchmarks.md).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU milliseconds of a stretch; `dynamoMs` absent where the JVM's /proc entry is not readable. */
export interface CpuSplit {
  readonly benchMs: number;
  readonly dynamoMs?: number;
}

/** Starts measuring; the function it returns ends the stretch and answers its CPU time. */
export type CpuMeter = () => () => CpuSplit;

/**
 * utime + stime of a `/proc/<pid>/stat` line, in ms. The command name (field 2) may hold spaces
 * and parentheses, so fields are counted from its closing parenthesis: state is field 3, utime
 * and stime fields 14 and 15 (proc(5)).
 */
export function procStatCpuMs(stat: string, ticksPerSecond: number): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`not a /proc/<pid>/stat line: ${stat.slice(0, 80)}`);
  }
  return ((utime + stime) * 1000) / ticksPerSecond;
}

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 where it cannot be asked). */
function ticksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

// Asked once, at load: never inside a measured stretch.
const TICKS_PER_SECOND = ticksPerSecond();

function processCpuMs(pid: number): number | undefined {
  try {
    return procStatCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'), TICKS_PER_SECOND);
  } catch {
    return undefined;
  }
}

/** A meter of this process and, when its pid is known and /proc readable, DynamoDB Local's. */
export function cpuMeter(dynamoPid?: number): CpuMeter {
  return () => {
    const bench = process.cpuUsage();
    const dynamo = dynamoPid === undefined ? undefined : processCpuMs(dynamoPid);
    return () => {
      const used = process.cpuUsage(bench);
      const dynamoNow = dynamoPid === undefined ? undefined : processCpuMs(dynamoPid);
      const benchMs = (used.user + used.system) / 1000;
      return dynamo === undefined || dynamoNow === undefined
        ? { benchMs }
        : { benchMs, dynamoMs: dynamoNow - dynamo };
    };
  };
}
