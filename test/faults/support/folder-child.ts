import { CreditFolder } from '../../../functions/domain/intake/posting';
import { createPostingStore } from '../../../functions/dynamodb/intake/posting-store';
import { localDynamoClient } from '../../../local/services/dynamodb/dynamodb-local';

/**
 * A folder in its own process, for test/faults/deferred-sigkill.test.ts: posts every pending
 * credit of ACCOUNT_ID on TABLE_NAME at DYNAMODB_ENDPOINT, printing `posted <n>` after each
 * chunk and pausing PAUSE_MS, so a SIGKILL can land while there is still work to do.
 */
const { DYNAMODB_ENDPOINT, TABLE_NAME, ACCOUNT_ID, PAUSE_MS } = process.env;
if (!DYNAMODB_ENDPOINT || !TABLE_NAME || !ACCOUNT_ID) throw new Error('folder-child: env missing');
const client = localDynamoClient(DYNAMODB_ENDPOINT);
const store = createPostingStore({ client, tableName: TABLE_NAME });
let posted = 0;
const folder = new CreditFolder(
  {
    readPending: store.readPending,
    setAside: store.setAside,
    async post(accountId, chunk, at) {
      const outcome = await store.post(accountId, chunk, at);
      if (outcome.kind === 'posted') posted += chunk.length;
      process.stdout.write(`posted ${posted}\n`);
      await new Promise((resolve) => setTimeout(resolve, Number(PAUSE_MS ?? 0)));
      return outcome;
    },
  },
  { clock: () => new Date() },
);
const run = await folder.postAll(ACCOUNT_ID);
process.stdout.write(`done ${run.posted}\n`);
client.destroy();
