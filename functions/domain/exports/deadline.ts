import { EXECUTION_ITEM_KIND } from '../../contract/names';
import type { SweepHandler } from '../sweeper/port';
import { isTerminal } from './model';
import type { ExecutionDeadlinePort } from './port';

/** Reads after a `moved` before the execution is left for the next sweep. */
const ATTEMPTS = 3;

/**
 * The sweeper's handler for executions (docs/contract.md §12): a non-terminal execution past
 * its deadline becomes TIMED_OUT exactly once, so its task can be rerun. The due index is read
 * eventually consistently, so the execution is re-read before the guarded write; one that has
 * turned terminal meanwhile is already done.
 */
export function executionDeadlineHandler(
  port: ExecutionDeadlinePort,
  decode: (attributes: Readonly<Record<string, unknown>>) => { taskId: string; id: string },
): SweepHandler {
  return {
    kind: EXECUTION_ITEM_KIND,
    async settle(item, now) {
      const { taskId, id } = decode(item.attributes);
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const found = await port.readExecution(taskId, id);
        if (!found || isTerminal(found.execution.status)) return 'already_done';
        const result = await port.timeOutExecution({
          taskId,
          executionId: id,
          expectedVersion: found.execution.version,
          current: found.currentExecutionId === id,
          progress: found.execution.progress,
          at: now.toISOString(),
        });
        if (result === 'committed') return 'settled';
      }
      throw new Error(`execution ${id} kept moving; left due for the next sweep`);
    },
  };
}
