import { createRequire } from 'node:module';
import { afterAll } from 'vitest';

/**
 * Unit, integration and faults files share one module graph per worker (`isolate: false` in
 * vitest.config.ts): a client's `send` that a file stubbed with aws-sdk-client-mock is put back
 * when that file ends, so the next file sees the real SDK unless it stubs it itself.
 * aws-sdk-client-mock loads sinon's CommonJS build and stubs in its default sandbox; that is
 * the one restored here.
 */
const sinon = createRequire(import.meta.url)('sinon') as { restore(): void };

afterAll(() => {
  sinon.restore();
});
