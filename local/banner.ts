import { LOCAL_AWS } from './dynamodb';
import type { LocalSettings } from './settings';
import { type LocalQueues, MAX_RECEIVE_COUNT } from './sqs';

export interface StackEndpoints {
  readonly httpUrl: string;
  readonly dynamoEndpoint: string;
  readonly dynamoExternal: boolean;
  readonly sqsEndpoint: string;
  readonly sqsExternal: boolean;
  readonly queues: LocalQueues;
}

/** What `npm start` prints once the stack is up: endpoints and a copy-paste walkthrough. */
export function banner(settings: LocalSettings, endpoints: StackEndpoints): string {
  const api = endpoints.httpUrl;
  const { config } = settings;
  const dynamo = endpoints.dynamoExternal
    ? 'external (DYNAMODB_ENDPOINT)'
    : 'DynamoDB Local, in memory';
  const sqs = endpoints.sqsExternal ? 'external (SQS_ENDPOINT)' : 'fauxqs, in memory';
  const { ledgerEvents, deadLetters, exportJobs } = endpoints.queues;
  return `
idempotent-ledger local stack
  HTTP API   ${api}   (API Gateway v2 events -> the Lambda handler)
  OpenAPI    ${api}/v1/openapi.json
  DynamoDB   ${endpoints.dynamoEndpoint}   (${dynamo}, table "${config.tableName}")
  SQS        ${endpoints.sqsEndpoint}   (${sqs}, region ${LOCAL_AWS.region}, any credentials)
    ${ledgerEvents.url}
    ${deadLetters.url}
    ${exportJobs.url}
  Poller     ${ledgerEvents.name} -> the events consumer: batches of up to 10, failed records reappear after ${settings.sqsVisibilityTimeoutSeconds} s, DLQ after ${MAX_RECEIVE_COUNT} receives
  Settings   idempotency retention ${config.idempotencyRetentionSeconds} s, inbox retention ${config.inboxRetentionSeconds} s, export fee ${config.exportFee}
  Identity   header X-Principal-Id: 1-128 ASCII letters, digits or . _ : @ - (local stack only)

Try it (a second run replays the same answers with Idempotent-Replayed: true):

ACCOUNT_ID=$(curl -sS -X POST ${api}/v1/accounts \\
  -H 'X-Principal-Id: alice' -H 'Idempotency-Key: demo-account-1' \\
  -H 'Content-Type: application/json' -d '{"currency":"EUR","name":"Alice"}' \\
  | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).id')

curl -sS -i -X POST ${api}/v1/accounts/$ACCOUNT_ID/transactions \\
  -H 'X-Principal-Id: alice' -H 'Idempotency-Key: demo-credit-1' \\
  -H 'Content-Type: application/json' -d '{"type":"credit","amount":2500,"currency":"EUR"}'

curl -sS ${api}/v1/accounts/$ACCOUNT_ID -H 'X-Principal-Id: alice'

Send a ledger event (run it in this repository: it uses its @aws-sdk/client-sqs), then GET the
account again: the balance has grown by 10.00. Sending the same event again changes nothing.

${sendEventSnippet(endpoints.sqsEndpoint, ledgerEvents.url)}

${readDlqSnippet(endpoints)}

Press Ctrl-C to stop everything.
`;
}

const clientSource = (endpoint: string) =>
  `new SQSClient({ endpoint: "${endpoint}", region: "${LOCAL_AWS.region}", ` +
  'credentials: { accessKeyId: "local", secretAccessKey: "local" } })';

/** A copy-paste `node -e` that sends one credit event for $ACCOUNT_ID (no AWS CLI needed). */
function sendEventSnippet(endpoint: string, queueUrl: string): string {
  return `node -e '
const { SQSClient, SendMessageCommand } = require("@aws-sdk/client-sqs");
const sqs = ${clientSource(endpoint)};
const event = { specversion: "1.0", id: "demo-event-1", source: "urn:demo:bank", type: "ledger.credit.v1",
  subject: process.argv[1], sequence: 1, data: { amount: 1000, currency: "EUR" } };
sqs.send(new SendMessageCommand({ QueueUrl: "${queueUrl}", MessageBody: JSON.stringify(event) }))
  .then((r) => console.log("sent", r.MessageId));
' "$ACCOUNT_ID"`;
}

/** How to look at the dead-letter queue: fauxqs' inspection route, or a ReceiveMessage. */
function readDlqSnippet(endpoints: StackEndpoints): string {
  const { deadLetters } = endpoints.queues;
  const peek = endpoints.sqsExternal
    ? ''
    : `Peek at the dead-letter queue without consuming it (a fauxqs route):

curl -sS ${endpoints.sqsEndpoint}/_fauxqs/queues/${deadLetters.name}

`;
  return `${peek}Receive from it (body unchanged, attributes error_code and error_detail):

node -e '
const { SQSClient, ReceiveMessageCommand } = require("@aws-sdk/client-sqs");
const sqs = ${clientSource(endpoints.sqsEndpoint)};
sqs.send(new ReceiveMessageCommand({ QueueUrl: "${deadLetters.url}", MaxNumberOfMessages: 10,
  MessageAttributeNames: ["All"], VisibilityTimeout: 0 }))
  .then((r) => console.log(JSON.stringify(r.Messages ?? [], null, 2)));
'`;
}
