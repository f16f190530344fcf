import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeEach } from 'vitest';
import { startedStacks } from './stack';

/** How much of a stack's output a failing test prints; the whole log goes to a file. */
const TAIL_LINES = 150;
const LOG_DIR = join(process.cwd(), 'test-output', 'e2e');

/**
 * The e2e project's setup file: a green run prints nothing of the stacks'
 * output (the stacks keep it in memory, where the tests read it); a failing test prints the tail
 * of every stack its file started and writes each whole log to test-output/e2e/. Vitest shows a
 * test's console output only when the test fails (`silent: 'passed-only'` in vitest.config.ts).
 */
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => {
    let n = 0;
    for (const stack of startedStacks) {
      n += 1;
      const file = join(LOG_DIR, `${basename(task.file.name, '.test.ts')}-${n}-${stack.pid}.log`);
      mkdirSync(LOG_DIR, { recursive: true });
      writeFileSync(file, stack.output());
      const tail = stack.output().trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
      console.log(
        `--- local stack ${n} (pid ${stack.pid}), last ${TAIL_LINES} lines; all: ${file}\n${tail}`,
      );
    }
  });
});
