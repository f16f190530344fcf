import fc from 'fast-check';

/**
 * How long a model-based property may start new random runs (the four model tests:
 * test/faults/model, batches-model, events-model, test/integration/accounts/ledger-model). A
 * loaded machine checks fewer runs instead of a longer suite; every CI run draws new seeds, so
 * the runs add up across CI runs.
 */
export const PROPERTY_BUDGET_MS = 6_000;

/**
 * `fc.assert` over an async model property that starts no new random run once the budget is
 * spent: the file's `examples` always run, every run that starts is checked whole, and after a
 * failure the budget no longer applies, so shrinking runs to its end.
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
  const examples = params.examples?.length ?? 0;
  const deadline = Date.now() + PROPERTY_BUDGET_MS;
  let started = 0;
  let failed = false;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      started++;
      if (!failed && started > examples && Date.now() > deadline) return;
      try {
        await run(value);
      } catch (error) {
        failed = true;
        throw error;
      }
    }),
    params,
  );
}
