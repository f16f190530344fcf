import fc from 'fast-check';

/**
 * How long a model-based property may start new random runs (the four model tests:
 * test/faults/model, batches-model, events-model, test/integration/accounts/ledger-model). A
 * loaded machine checks fewer runs instead of a longer suite; every CI run draws new seeds, so
 * the runs add up across CI runs.
 */
export const PROPERTY_BUDGET_MS = 6_000;
/** How long shrinking may go on after a failure before fast-check reports the smallest so far. */
export const SHRINK_BUDGET_MS = 30_000;

/**
 * `fc.assert` over an async model property that starts no new random run once the budget is
 * spent: the file's `examples` and at least one random run always run, and every run that
 * starts is checked whole. After a failure, shrinking has its own budget; past it every
 * candidate passes at once, so fast-check ends and reports the smallest failure found (with its
 * seed) well before the test's timeout.
 *
 * Not fast-check's `interruptAfterTimeLimit`: that races a run against the clock and abandons it
 * still running, so its requests went on into the file's next test (the reconciler once counted
 * an account that run credited after the count was taken: 28 ≠ 27) and a failure in it was never
 * reported. Nor `skipAllAfterTimeLimit`: its skipped runs count as rejected values and fail the
 * property once a loaded machine skips enough of them.
 */
export async function assertWithinBudget<T>(
  arbitrary: fc.Arbitrary<T>,
  run: (value: T) => Promise<void>,
  params: fc.Parameters<[T]>,
): Promise<void> {
  const always = (params.examples?.length ?? 0) + 1;
  const deadline = Date.now() + PROPERTY_BUDGET_MS;
  let started = 0;
  let failedAt: number | undefined;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      started++;
      if (failedAt === undefined && started > always && Date.now() > deadline) return;
      if (failedAt !== undefined && Date.now() > failedAt + SHRINK_BUDGET_MS) return;
      try {
        await run(value);
      } catch (error) {
        failedAt ??= Date.now();
        throw error;
      }
    }),
    params,
  );
}
