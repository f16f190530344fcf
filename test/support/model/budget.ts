/**
 * How long a model-based property may run before fast-check stops it between runs (the four
 * model tests: test/faults/model, batches-model, events-model, test/integration/accounts/
 * ledger-model). A loaded machine checks fewer runs instead of a longer suite: fast-check stops
 * only between runs and runs a file's `examples` first, so those and at least one random run are
 * always checked whole. Every CI run draws new seeds, so the runs add up across CI runs. 20 s
 * at first (under load all four took the whole of it: 80 s of worker time), 12 s until the
 * deferred-credit tests brought the suite to 346 s on a clean clone: 8 s now.
 */
export const PROPERTY_BUDGET = {
  interruptAfterTimeLimit: 8_000,
  markInterruptAsFailure: false,
} as const;
