import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on a clean clone (seconds, from the `.ci/run` named below), started
 * first within their project so that no long file begins when the others are nearly done: on a
 * clean clone Vitest has no durations cached and would start them in path order. A file missing
 * here sorts after these, as Vitest would order it.
 */
const SLOW_FIRST: readonly string[] = [
  'test/e2e/readme.test.ts', // 73 (a .ci/run of 6 December 2026, 11:28 UTC, load 3–5)
  'test/browser/console.test.ts', // 60
  'test/integration/exports/export-heap.test.ts', // 52
  'test/browser/api-reference.test.ts', // 49
  'test/integration/bench-smoke.test.ts', // 45
  'test/e2e/deferred-credits.test.ts', // 44
  'test/integration/bench-smoke-more.test.ts', // 43
  'test/faults/soak.test.ts', // 35
  'test/infra/stacks/bundling.test.ts', // 33
  'test/integration/statements/statements.test.ts', // 33
  'test/e2e/signals.test.ts', // 29
  'test/faults/hot-account.test.ts', // 28
  'test/faults/sigkill.test.ts', // 27
  'test/e2e/journal.test.ts', // 23
  'test/faults/deferred-contention.test.ts', // 19
  'test/integration/intake/folder.test.ts', // 15
  'test/e2e/review-edges.test.ts', // 15
];

const rank = (spec: TestSpecification): number => {
  const at = SLOW_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
  return at < 0 ? SLOW_FIRST.length : at;
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order of projects stays; within each, the slow files first, then Vitest's own
    // order (Array.prototype.sort is stable).
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      byProject.set(spec.project.name, [...(byProject.get(spec.project.name) ?? []), spec]);
    }
    return [...byProject.values()].flatMap((specs) => specs.sort((a, b) => rank(a) - rank(b)));
  }
}
