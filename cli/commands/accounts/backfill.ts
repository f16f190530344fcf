import { backfillAccountDirectory } from '../../../functions/dynamodb/accounts/backfill';
import { operatorCommand } from '../../operator-command';
import { operatorTableHelp } from '../../operator-dynamo';

export const accountsBackfillCommand = operatorCommand({
  name: 'accounts-backfill',
  help: `Usage: npm run cli -- accounts-backfill [--aws] [--table <name>]

Accounts created before this release are not in the account directory (the accounts,
account-owners and account-names indexes the console's Accounts page reads, docs/contract.md
§31). This writes each such account's directory keys once (conditional on the owner read, so a
concurrent re-own is never undone). Idempotent: run it again and it finds nothing. It scans the
table, page by page.

Options:
${operatorTableHelp(27)}
  -h, --help                 this help`,
  options: {},
  parse: () => ({}),
  async run(args, dynamo, ctx) {
    const total = await backfillAccountDirectory(
      { client: dynamo, tableName: args.table },
      (page) => {
        if (page.seen > 0) ctx.out(`page: ${page.indexed} of ${page.seen} account(s) indexed`);
      },
      ctx.signal,
    );
    const left = total.seen - total.indexed;
    ctx.out(
      `done: ${total.indexed} account(s) indexed` +
        (left > 0 ? `, ${left} gone or re-owned meanwhile (run it again)` : ''),
    );
    return 0;
  },
});
