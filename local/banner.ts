import type { LocalSettings } from './settings';

export interface StackEndpoints {
  readonly httpUrl: string;
  readonly dynamoEndpoint: string;
  readonly dynamoExternal: boolean;
}

/** What `npm start` prints once the stack is up: endpoints and a copy-paste walkthrough. */
export function banner(settings: LocalSettings, endpoints: StackEndpoints): string {
  const api = endpoints.httpUrl;
  const { config } = settings;
  const dynamo = endpoints.dynamoExternal
    ? 'external (DYNAMODB_ENDPOINT)'
    : 'DynamoDB Local, in memory';
  return `
idempotent-ledger local stack
  HTTP API   ${api}   (API Gateway v2 events -> the Lambda handler)
  OpenAPI    ${api}/v1/openapi.json
  DynamoDB   ${endpoints.dynamoEndpoint}   (${dynamo}, table "${config.tableName}")
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

Press Ctrl-C to stop everything.
`;
}
