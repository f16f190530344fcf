import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on a clean clone (a `.ci/run` of 4 December 2026, seconds), started
 * first within their project so that no long file begins when the others are nearly done: on a
 * clean clone Vitest has no durations cached and would start them in path order. A file missing
 * here sorts after these, as Vitest would order it.
 */
const SLOW_FIRST: readonly string[] = [
  'test/faults/soak.test.ts', // 55–70 with its stack's start (6 December, under load)
  'test/integration/bench-smoke.test.ts', // 60 together with bench-smoke-more
  'test/integration/bench-smoke-more.test.ts',
  'test/e2e/readme.test.ts', // 35
  'test/browser/console.test.ts', // 31
  'test/faults/hot-account.test.ts', // 26
  'test/integration/exports/export-heap.test.ts', // 24
  'test/browser/api-reference.test.ts', // 23
  'test/e2e/signals.test.ts', // 20
  'test/integration/statements/statements.test.ts', // 16
  'test/faults/sigkill.test.ts', // 16
  'test/e2e/journal.test.ts', // 16
  'test/infra/stacks/bundling.test.ts', // 14
  'test/faults/deferred-sigkill.test.ts', // 14
  'test/e2e/review-edges.test.ts', // 13
  'test/faults/deferred-contention.test.ts', // 13
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
