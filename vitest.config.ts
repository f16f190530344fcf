import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/sequencer.js';

// The SDK warns that releases after January 2027 need Node 22; CI and dev run Node 20.
// Set here too so global setups (which run in this process) stay quiet.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * Test files at once, across all projects: on 2 cores Vitest's default (cores - 1) runs one file
 * at a time, while most files wait on DynamoDB Local, the SQS emulator or a local stack. Three
 * at once timed out the load-sensitive files (faults, the 20,000-entry statement) once the v4
 * features landed; docs/architecture.md "Testing notes". `--maxWorkers=N` overrides it.
 */
const MAX_WORKERS = 2;

export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    maxWorkers: MAX_WORKERS,
    // The longest files start first within their project (test/support/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    // Quiet when green: a test's console output (request logs included)
    // is printed only when that test fails; setting LOG_LEVEL prints everything.
    silent: process.env.LOG_LEVEL ? false : 'passed-only',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // One module graph per worker: importing the SDK, zod and CDK-free code once per file
          // was two thirds of the project's time (39 s → 13 s). Stubs are put back per file.
          isolate: false,
          setupFiles: ['test/support/restore-stubs.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // One module graph per worker, as unit: 157 s / 289 CPU-s → 108 s / 200. Each file
          // still leases its own DynamoDB Local (the setup file runs per file) and makes its own
          // table; aws-sdk-client-mock stubs are put back per file.
          isolate: false,
          globalSetup: ['test/integration/global-setup.ts'],
          setupFiles: ['test/support/lease-dynamo.ts', 'test/support/restore-stubs.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // aws-cdk-lib loads once per worker, and test/infra/synth.ts's cache of read-only
          // templates serves every file that asks for the same configuration.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          // One module graph per worker, as integration: each file imported the service, the
          // SDK and fast-check again. Stubs are put back per file.
          isolate: false,
          globalSetup: ['test/integration/global-setup.ts'],
          setupFiles: ['test/support/lease-dynamo.ts', 'test/support/restore-stubs.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // The file's leased DynamoDB Local, which its stacks share, each with its own table
          // (test/e2e/support/stack.ts): a JVM start is most of a stack's start.
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts its own stacks on free ports, so files run side by side.
          setupFiles: ['test/support/lease-dynamo.ts', 'test/e2e/support/failure-log.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
