import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DEFAULT_GAP_REFETCH_AFTER_SECONDS } from '../../functions/contract/gaps';
import { LOCAL_AWS } from '../../functions/contract/local-stack';
import { backfillGapIndex } from '../../functions/dynamodb/gaps/backfill';
import { parseCommandArgs, stringOption } from '../args';
import type { Command } from '../command';
import { dynamoEndpoint, tableName } from '../config';
import { UsageError } from '../errors';

const NAME = 'gaps-backfill';

const OPTIONS = {
  aws: { type: 'boolean' },
  dynamodb: { type: 'string' },
  table: { type: 'string' },
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
  --aws                      use AWS (credentials and region from the environment)
  --table <name>             the ledger table (default TABLE_NAME, locally ledger; required with --aws)
  --refetch-after <seconds>  the deployment's GAP_REFETCH_AFTER_SECONDS (default ${DEFAULT_GAP_REFETCH_AFTER_SECONDS})
  --dynamodb <url>           local DynamoDB (default DYNAMODB_ENDPOINT, else http://127.0.0.1:$DYNAMODB_PORT)
  -h, --help                 this help`,
  async run(argv, ctx) {
    const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
    if (help) {
      ctx.out(gapsBackfillCommand.help);
      return 0;
    }
    const aws = values.aws === true;
    const given = stringOption(values, 'refetch-after');
    const after = given === undefined ? DEFAULT_GAP_REFETCH_AFTER_SECONDS : Number(given);
    if (!Number.isInteger(after) || after < 1) {
      throw new UsageError('--refetch-after must be a whole number of seconds ≥ 1', NAME);
    }
    const table = tableName(stringOption(values, 'table'), ctx.env, aws, NAME);
    const dynamo = aws
      ? new DynamoDBClient({ maxAttempts: 6 })
      : new DynamoDBClient({
          ...LOCAL_AWS,
          endpoint: dynamoEndpoint(stringOption(values, 'dynamodb'), ctx.env, NAME),
          maxAttempts: 3,
        });
    try {
      const total = await backfillGapIndex(
        { client: dynamo, tableName: table },
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
    } finally {
      dynamo.destroy();
    }
  },
};
