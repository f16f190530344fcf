import { DEFAULT_GAP_REFETCH_AFTER_SECONDS } from '../../functions/contract/gaps';
import { backfillGapIndex } from '../../functions/dynamodb/gaps/backfill';
import { parseCommandArgs, stringOption } from '../args';
import type { Command } from '../command';
import { UsageError } from '../errors';
import {
  OPERATOR_TABLE_OPTIONS,
  operatorTable,
  operatorTableHelp,
  withOperatorDynamo,
} from '../operator-dynamo';

const NAME = 'gaps-backfill';

const OPTIONS = {
  ...OPERATOR_TABLE_OPTIONS,
  'refetch-after': { type: 'string' },
} as const;

export const gapsBackfillCommand: Command = {
  name: NAME,
  summary: 'put ledger-event gaps recorded before gap re-fetch into the due index (operators)',
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
  async run(argv, ctx) {
    const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
    if (help) {
      ctx.out(gapsBackfillCommand.help);
      return 0;
    }
    const given = stringOption(values, 'refetch-after');
    const after = given === undefined ? DEFAULT_GAP_REFETCH_AFTER_SECONDS : Number(given);
    if (!Number.isInteger(after) || after < 1) {
      throw new UsageError('--refetch-after must be a whole number of seconds ≥ 1', NAME);
    }
    const target = operatorTable(values, ctx.env, NAME);
    return withOperatorDynamo(target, async (dynamo) => {
      const total = await backfillGapIndex(
        { client: dynamo, tableName: target.table },
        after,
        (page) => {
          if (page.seen > 0)
            ctx.out(`page: ${page.indexed} indexed, ${page.moved} moved meanwhile`);
        },
        ctx.signal,
      );
      ctx.out(
        `done: ${total.indexed} event source(s) indexed, ${total.moved} already rewritten by events`,
      );
      return 0;
    });
  },
};
