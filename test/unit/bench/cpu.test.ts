import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuMeter, procStatCpuMs } from '../../../bench/cpu';

// A /proc/<pid>/stat line of a JVM (proc(5)): pid, (comm), state, … utime (14), stime (15), …
const stat = (comm: string, utime: number, stime: number) =>
  `4711 (${comm}) S 1 4711 4711 0 -1 4194560 9 0 0 0 ${utime} ${stime} 0 0 20 0 40 0 1 0 0`;

describe('CPU split of a bench stretch', () => {
  it('adds utime and stime, in ms at the clock ticks given', () => {
    expect(procStatCpuMs(stat('java', 250, 50), 100)).toBe(3000);
    expect(procStatCpuMs(stat('java', 250, 50), 1000)).toBe(300);
  });

  it('counts fields from the last parenthesis, whatever the command name holds', () => {
    expect(procStatCpuMs(stat('a) S 9 (b', 7, 3), 100)).toBe(100);
  });

  it('refuses a line that is not a stat line rather than answer NaN', () => {
    expect(() => procStatCpuMs('no such process', 100)).toThrow(/not a \/proc/);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'measures this process, and by pid where /proc has it',
    () => {
      const stop = cpuMeter(process.pid)();
      const burnUntil = process.cpuUsage().user + 30_000;
      let spin = 0;
      while (process.cpuUsage().user < burnUntil) spin++;
      const used = stop();
      expect(spin).toBeGreaterThan(0);
      expect(used.benchMs).toBeGreaterThanOrEqual(30);
      // The kernel counts in ticks (10 ms here): the same process by pid, within two ticks.
      expect(Math.abs((used.dynamoMs ?? Number.NaN) - used.benchMs)).toBeLessThanOrEqual(20);
    },
  );

  it('leaves the JVM out where its pid is unknown or gone', () => {
    expect(cpuMeter()()()).not.toHaveProperty('dynamoMs');
    expect(cpuMeter(2 ** 30)()()).not.toHaveProperty('dynamoMs');
  });
});
