/** A tiny side-by-side timer: runs baseline and candidate alternately so drift hits both. */
export interface Sample {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly heapBytesPerOp: number;
}

export async function measure(
  name: string,
  run: () => unknown | Promise<unknown>,
  iterations: number,
): Promise<Sample> {
  for (let i = 0; i < Math.min(iterations, 200); i++) await run(); // warm-up
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await run();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const heapAfter = process.memoryUsage().heapUsed;
  return {
    name,
    opsPerSecond: iterations / seconds,
    heapBytesPerOp: Math.max(0, heapAfter - heapBefore) / iterations,
  };
}

/** Best of `rounds` alternating runs for each side, then one line with the ratio. */
export async function compare(
  title: string,
  baseline: { name: string; run: () => unknown },
  candidate: { name: string; run: () => unknown },
  iterations: number,
  rounds = 3,
): Promise<{ title: string; ratio: number }> {
  let best = { base: 0, cand: 0, baseHeap: 0, candHeap: 0 };
  for (let r = 0; r < rounds; r++) {
    const b = await measure(baseline.name, baseline.run, iterations);
    const c = await measure(candidate.name, candidate.run, iterations);
    if (b.opsPerSecond > best.base)
      best = { ...best, base: b.opsPerSecond, baseHeap: b.heapBytesPerOp };
    if (c.opsPerSecond > best.cand)
      best = { ...best, cand: c.opsPerSecond, candHeap: c.heapBytesPerOp };
  }
  const ratio = best.base / best.cand;
  const fmt = (n: number) => n.toFixed(0).padStart(10);
  console.log(`\n${title}`);
  console.log(
    `  ${baseline.name.padEnd(44)} ${fmt(best.base)} ops/s  ~${best.baseHeap.toFixed(0)} B/op`,
  );
  console.log(
    `  ${candidate.name.padEnd(44)} ${fmt(best.cand)} ops/s  ~${best.candHeap.toFixed(0)} B/op`,
  );
  console.log(`  cost ratio candidate/baseline: ${ratio.toFixed(2)}x`);
  return { title, ratio };
}
