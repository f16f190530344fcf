import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on a clean clone (seconds, from the clean-clone run named below), started
 * first within their project so that no long file begins when the others are nearly done: on a
 * clean clone Vitest has no durations cached and would start them in path order. A file missing
 * here sorts after these, as Vitest would order it.
 */
const SLOW_FIRST: readonly string[] = [
  'test/e2e/readme.test.ts', // 37 (a clean clone's Vitest run of 6 December 2026, 23:07 UTC, quiet)
  'test/browser/console.test.ts', // 27
  'test/faults/soak.test.ts', // 27
  'test/e2e/journal.test.ts', // 20
  'test/faults/hot-account.test.ts', // 19
  'test/integration/bench-smoke.test.ts', // 17
  'test/browser/api-reference.test.ts', // 14
  'test/infra/stacks/bundling.test.ts', // 13
  'test/e2e/deferred-credits.test.ts', // 12
  'test/integration/bench-smoke-more.test.ts', // 12
  'test/e2e/signals.test.ts', // 12
  'test/faults/gaps-sigkill.test.ts', // 11
  'test/e2e/review-edges.test.ts', // 11
  'test/faults/sigkill.test.ts', // 11
  'test/faults/deferred-contention.test.ts', // 10
  'test/integration/exports/export-heap.test.ts', // 10
  'test/e2e/exports-deadline.test.ts', // 9
  'test/integration/statements/statements.test.ts', // 9
  'test/faults/model.test.ts', // 8
  'test/e2e/smoke.test.ts', // 8
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
