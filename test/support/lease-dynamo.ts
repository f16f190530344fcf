import { leaseDynamoForFile } from './dynamo-lease';

/** Setup file of the projects that use DynamoDB Local: each test file leases one for its run. */
await leaseDynamoForFile();
