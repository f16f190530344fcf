import { COMMANDS } from '../cli/registry';
import { consoleUrl } from '../console/shared/api';
import {
  DEFAULT_PORT,
  DEFAULT_SQS_PORT,
  DEMO_CALLBACK_SECRET,
  LOCAL_AWS,
} from '../functions/contract/local-stack';
import { splitCallbackKeys } from '../functions/domain/callbacks/keys';
import { LOCAL_TRIGGERS } from './functions';
import { API_REFERENCE_PATH } from './services/http/api-reference';
import type { LocalQueues } from './services/sqs/queues';
import type { LocalTopics } from './services/sqs/topics';
import type { LocalSettings } from './settings';

export interface StackEndpoints {
  readonly httpUrl: string;
  readonly dynamoEndpoint: string;
  readonly dynamoExternal: boolean;
  /** The contention layer the functions call DynamoDB through (DYNAMODB_CONTENTION=on). */
  readonly contentionEndpoint?: string | undefined;
  /** False when the DynamoDB Local it started listens on every interface, not 127.0.0.1 only. */
  readonly dynamoLoopbackOnly: boolean;
  readonly sqsEndpoint: string;
  readonly sqsExternal: boolean;
  readonly queues: LocalQueues;
  readonly topics: LocalTopics;
  /** SNS holding the journal topic. */
  readonly snsEndpoint: string;
  /** The table's stream that the stream triggers read. */
  readonly streamArn: string;
  /** S3 holding the export bucket (the SQS emulator unless S3_ENDPOINT names another). */
  readonly s3Endpoint: string;
  /** This start's console token (console/server/http/token.ts), printed in the console's URL. */
  readonly consoleToken: string;
}

/** With DYNAMODB_CONTENTION=on: where the functions' DynamoDB calls go instead. */
function contentionLine(settings: LocalSettings, endpoints: StackEndpoints): string {
  if (!settings.contention || !endpoints.contentionEndpoint) return '';
  return `  Contention ${endpoints.contentionEndpoint}   (DYNAMODB_CONTENTION=on: the functions call DynamoDB through it; overlapping transactions on an item are cancelled, ${settings.contention.writeUnitsPerSecond} write units per item and second)\n`;
}

/** What `npm start` prints once the stack is up: endpoints and a copy-paste walkthrough. */
export function banner(settings: LocalSettings, endpoints: StackEndpoints): string {
  const api = endpoints.httpUrl;
  const { config } = settings;
  const dynamo = endpoints.dynamoExternal
    ? 'external (DYNAMODB_ENDPOINT)'
    : endpoints.dynamoLoopbackOnly
      ? 'DynamoDB Local, in memory, 127.0.0.1 only'
      : 'DynamoDB Local, in memory, listening on EVERY interface: this Java has no jdk.compiler to run the 127.0.0.1 launcher';
  const sqs = endpoints.sqsExternal ? 'external (SQS_ENDPOINT)' : 'fauxqs, in memory';
  const { ledgerEvents, deadLetters, exportJobs } = endpoints.queues;
  return `
idempotent-ledger local stack
  HTTP API   ${api}   (API Gateway v2 events -> the Lambda handler)
  OpenAPI    ${api}/v1/openapi.json   (interactive reference: ${api}${API_REFERENCE_PATH})
  Console    ${consoleUrl(api, endpoints.consoleToken)}   (operator console, this start's token; docs/console.md)
  DynamoDB   ${endpoints.dynamoEndpoint}   (${dynamo}, table "${config.tableName}")
${contentionLine(settings, endpoints)}  SQS        ${endpoints.sqsEndpoint}   (${sqs}, region ${LOCAL_AWS.region}, any credentials)
    ${ledgerEvents.url}
    ${deadLetters.url}
    ${exportJobs.url}
    ${endpoints.queues.exportJobsDeadLetters.url}
    ${endpoints.queues.creditIntake.url}
    ${endpoints.queues.creditIntakeDeadLetters.url}
  SNS        ${endpoints.snsEndpoint}   (topic ${endpoints.topics.journal.arn}, tap ${endpoints.topics.journal.tap.url})
             topic ${endpoints.topics.gaps.arn}, tap ${endpoints.topics.gaps.tap.url} (gap re-fetch requests after ${settings.gapRefetchAfterSeconds} s)
  S3         ${endpoints.s3Endpoint}/${config.exportBucket}   (export files, path-style; presigned URLs download with plain curl)
${callbacksLines(settings, api)}
${triggerLines(settings, endpoints)}
  Settings   idempotency retention ${config.idempotencyRetentionSeconds} s, inbox retention ${config.inboxRetentionSeconds} s, export fee ${config.exportFee}, reruns per task ${config.maxRerunsPerTask}, exports kept ${config.exportRetentionDays} d
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

Exports: POST ${api}/v1/accounts/$ACCOUNT_ID/exports {"format":"csv"} debits ${config.exportFee} and
queues a job on ${exportJobs.name}; the export worker writes the file and reports with signed callbacks.
Then GET ${api}/v1/tasks/$TASK_ID/result answers a presigned URL: curl -sS "<url>" downloads the file.
The CLI ("demo" runs it all, down to the file):

${cliCommands(settings, endpoints)}

Press Ctrl-C to stop everything.
`;
}

/** One line per function trigger, as local/functions.ts registers them. */
function triggerLines(settings: LocalSettings, endpoints: StackEndpoints): string {
  const view = {
    settings,
    queues: endpoints.queues,
    topics: endpoints.topics,
    streamArn: endpoints.streamArn,
  };
  return LOCAL_TRIGGERS.map(
    ({ banner: { label, text } }) => `  ${label.padEnd(10)} ${text(view)}`,
  ).join('\n');
}

/** Where signed callbacks go and which secret signs them (contract §7: the local default is printed). */
function callbacksLines(settings: LocalSettings, api: string): string {
  const app = settings.config.callbackApplicationId;
  const apps = Object.keys(settings.callbackSecrets);
  const exportSecrets = splitCallbackKeys(settings.callbackSecrets[app] ?? []).secrets;
  const lines = settings.callbackSecretsGiven
    ? [
        `  Callbacks  POST ${api}/v1/callbacks/<applicationId>; exports report as "${app}"`,
        `             applications from CALLBACK_SECRETS: ${apps.join(', ')} (secrets not shown)`,
      ]
    : [
        `  Callbacks  POST ${api}/v1/callbacks/${app}   (header Callback-Signature: t=<unix s>,v1=<HMAC-SHA256 hex>, or Standard Webhooks webhook-id/-timestamp/-signature)`,
        `             demo application "${app}", demo secret "${DEMO_CALLBACK_SECRET}" (set CALLBACK_SECRETS to change)`,
      ];
  if (exportSecrets.length === 0) {
    lines.push(
      `  WARNING    CALLBACK_SECRETS has no HMAC secret for "${app}": the export worker cannot sign its callbacks`,
    );
  }
  return lines.join('\n');
}

/**
 * The CLI's commands from its own registry (cli/registry.ts), with the variables that point it at
 * this stack when it is not on the defaults.
 */
function cliCommands(settings: LocalSettings, endpoints: StackEndpoints): string {
  const env: string[] = [];
  if (settings.port !== DEFAULT_PORT) env.push(`PORT=${settings.port}`);
  if (endpoints.sqsExternal) env.push(`SQS_ENDPOINT=${endpoints.sqsEndpoint}`);
  else if (settings.sqsPort !== DEFAULT_SQS_PORT) env.push(`SQS_PORT=${settings.sqsPort}`);
  if (settings.callbackSecretsGiven) env.push(`CALLBACK_SECRETS='...'`);
  const cli = `${env.length > 0 ? `${env.join(' ')} ` : ''}npm run cli --`;
  const width = Math.max(...COMMANDS.map((c) => c.name.length), '--help'.length);
  return [
    ...COMMANDS.map((c) => `${cli} ${c.name.padEnd(width)}  # ${c.summary}`),
    `${cli} ${'--help'.padEnd(width)}  # how to use them: npm run cli -- <command> --help`,
  ].join('\n');
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
