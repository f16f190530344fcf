import { DEFAULT_GAP_REFETCH_AFTER_SECONDS } from '../../functions/contract/gaps';
import { backfillGapIndex } from '../../functions/dynamodb/gaps/backfill';
import { stringOption } from '../args';
import { UsageError } from '../errors';
import { operatorCommand } from '../operator-command';
import { operatorTableHelp } from '../operator-dynamo';

const NAME = 'gaps-backfill';

export const gapsBackfillCommand = operatorCommand({
  name: NAME,
  help: `Usage: npm run cli -- gaps-backfill [--aws] [--table <name>] [--refetch-after <seconds>]

Gaps recorded before this release have no openedAt and are not in the sweeper's due index
(docs/contract.md §18). This rewrites each such ledger-event source item once, its gaps opened at
the item's last write, so the sweeper requests them after GAP_REFETCH_AFTER_SECONDS. Conditional
on the version read: an item an event rewrote meanwhile is left as it is (already indexed).
Idempotent: run it again and it finds nothing. It scans the table, page by page.

Options:
  --refetch-after <seconds>  the deployment's GAP_REFETCH_AFTER_SECONDS (CDK context
                             gapRefetchAfterSeconds; default ${DEFAULT_GAP_REFETCH_AFTER_SECONDS})
${operatorTableHelp(27)}
  -h, --help                 this help`,
  options: { 'refetch-after': { type: 'string' } },
  parse(values) {
    const given = stringOption(values, 'refetch-after');
    const after = given === undefined ? DEFAULT_GAP_REFETCH_AFTER_SECONDS : Number(given);
    if (!Number.isInteger(after) || after < 1) {
      throw new UsageError('--refetch-after must be a whole number of seconds ≥ 1', NAME);
    }
    return { refetchAfterSeconds: after };
  },
  async run(args, dynamo, ctx) {
    const total = await backfillGapIndex(
      { client: dynamo, tableName: args.table },
      args.refetchAfterSeconds,
      (page) => {
        if (page.seen > 0) ctx.out(`page: ${page.indexed} indexed, ${page.moved} moved meanwhile`);
      },
      ctx.signal,
    );
    ctx.out(
      `done: ${total.indexed} event source(s) indexed, ${total.moved} already rewritten by events`,
    );
    return 0;
  },
});
