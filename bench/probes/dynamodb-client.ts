/** Cold-start probe: the DynamoDB client and one command, as every one of our functions and the baseline load it. */
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({});
export const handler = async () => ({ client, command: TransactWriteItemsCommand.name });
