/**
 * Runs the synchronous `work` with this process's stderr writes dropped: CDK prints
 * `Bundling asset …` with `process.stderr.write`, which no setting reaches. For the test
 * suite's synths and the bench's quiet runs; stderr is restored however `work` ends.
 */
export function withQuietStderr<T>(work: () => T): T {
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return work();
  } finally {
    process.stderr.write = write;
  }
}
