/**
 * The examples /docs shows (issue 49). Swagger UI makes up a value for every field without an
 * `example`: the minimum of an integer (`-9007199254740991`), a date in the year 9600, regex
 * noise for a pattern. So every field of the document gets one, chosen by its property name
 * (one vocabulary for the whole API: an `accountId` is the same account everywhere), unless
 * its schema already has one. Values describe one believable story: Alice's EUR account on
 * 30 November 2026. `test/unit/api/openapi-examples.test.ts` validates each against its schema
 * and holds it to plausible ranges.
 */

const ACCOUNT = '3f2b1c9e-8d7a-4e6f-9b5c-1a2d3e4f5a6b';
const OTHER_ACCOUNT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const AT = '2026-11-30T14:05:09.412Z';

/** By property (or parameter) name. */
const BY_NAME: Readonly<Record<string, unknown>> = {
  id: 'c8556693-2f4e-4b1a-9d3c-7e5f1a2b3c4d',
  accountId: ACCOUNT,
  fromAccountId: ACCOUNT,
  toAccountId: OTHER_ACCOUNT,
  counterpartyAccountId: OTHER_ACCOUNT,
  entryId: '7b2e4f60-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
  holdId: '5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f',
  transferId: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
  ledgerTransactionId: '5e1f0b42-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
  reversalId: 'aebc655b-3d4e-4f5a-8b6c-7d8e9f0a1b2c',
  monitorId: '6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0',
  taskId: 'a2c4b171-8e9f-4a0b-9c1d-2e3f4a5b6c7d',
  taskid: 'a2c4b171-8e9f-4a0b-9c1d-2e3f4a5b6c7d',
  executionId: '0d0c9e13-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  executionid: '0d0c9e13-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  currentExecutionId: '0d0c9e13-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  code: 'insufficient_funds',
  amount: 2500,
  balance: 12500,
  available: 11300,
  overdraftLimit: 0,
  capturedAmount: 1000,
  reversedAmount: 0,
  value: 1000,
  openingBalance: 0,
  totalCredits: 1000,
  totalDebits: 400,
  closingBalance: 600,
  balanceDelta: 2500,
  availableDelta: 2500,
  balanceAfter: 12500,
  availableAfter: 11300,
  version: 7,
  sequence: 7,
  nextAfterSequence: 8,
  lastSequence: 4,
  gaps: 3,
  number: 3,
  from: 2,
  to: 3,
  progress: 100,
  rows: 5,
  bytes: 1091,
  expiresInSeconds: 600,
  status: 201,
  limit: 20,
  name: 'Alice',
  description: 'low funds',
  reference: 'order 42',
  reason: 'voided upstream',
  paymentId: 'order-42',
  source: 'urn:demo:bank',
  metadata: { order: '42' },
  cursor: 'eyJrIjoiMjAyNi0xMS0zMFQxNDowNTowOS40MTJaIn0',
  nextCursor: 'eyJrIjoiMjAyNi0xMS0yOVQxNjo1MjoxMi42MThaIn0',
  hash: '5d0c3f1e9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d',
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  key: 'exports/a2c4b171-8e9f-4a0b-9c1d-2e3f4a5b6c7d/0d0c9e13-4a5b-4c6d-8e7f-9a0b1c2d3e4f.csv',
  url: 'https://hooks.example.com/ledger',
  endpointId: '8b9c0d1e-2f3a-4b5c-8d6e-7f8a9b0c1d2e',
  accountIds: ACCOUNT,
  events: 'ledger.journal.v1',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  indexedThrough: AT,
  previousSecretExpiresAt: '2026-12-01T14:05:09.412Z',
  deliveryId: 'mkq3v0x2a9f3c1d2e4b5a6c7',
  eventId: `${ACCOUNT}:0000000000000007`,
  eventType: 'ledger.journal.v1',
  attempts: 4,
  lastStatus: 204,
  lastError: 'HTTP 503 from the receiver',
  lastAttemptAt: AT,
  nextAttemptAt: '2026-11-30T14:06:09.412Z',
  applicationId: 'export-worker',
  applicationid: 'export-worker',
  type: '/v1/problems/insufficient_funds',
  title: 'Insufficient funds',
  detail: 'The account 3f2b1c9e-8d7a-4e6f-9b5c-1a2d3e4f5a6b has 1200 available; 2500 needed.',
  path: 'body.amount',
  message: 'must be at most 1000000000000 minor units (1e+12)',
  'Idempotency-Key': 'order-42-credit',
  'Callback-Signature':
    't=1796047509,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  'webhook-id': 'c8556693-2f4e-4b1a-9d3c-7e5f1a2b3c4d',
  'webhook-timestamp': '1796047509',
  'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  createdAt: AT,
  updatedAt: AT,
  committedAt: AT,
  effectiveAt: AT,
  acceptedAt: AT,
  setAsideAt: AT,
  stateSince: AT,
  openedAt: AT,
  waivedAt: AT,
  checkedAt: AT,
  time: AT,
  asOf: AT,
  refetchRequestedAt: '2026-11-30T14:05:14.412Z',
  expiresAt: '2026-11-30T14:15:09.412Z',
  deadline: '2026-11-30T14:20:09.412Z',
  urlExpiresAt: '2026-11-30T14:20:09.412Z',
  closedThrough: '2026-10-31T23:59:59.999Z',
};

/** Where a name means something else in one schema: `<Component>.<property>`. */
const BY_COMPONENT: Readonly<Record<string, unknown>> = {
  'CallbackEvent.type': 'ledger.export.execution.v1',
  'CallbackEvent.source': 'urn:idempotent-ledger:export-worker',
  'CallbackEvent.sequence': 4,
  'CreateLedgerTransaction.legs': [
    { accountId: ACCOUNT, direction: 'debit', amount: 800 },
    { accountId: OTHER_ACCOUNT, direction: 'credit', amount: 650 },
    { accountId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', direction: 'credit', amount: 150 },
  ],
  'EventSourceList.from': 2,
  'JournalPage.reversalOf': 'ledger_transaction:5e1f0b42-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
  'ExportResult.url':
    'https://ledger-exports.s3.eu-west-1.amazonaws.com/exports/a2c4b171-8e9f-4a0b-9c1d-2e3f4a5b6c7d/0d0c9e13-4a5b-4c6d-8e7f-9a0b1c2d3e4f.csv',
  'Problem.status': 409,
  'Statement.from': '2026-11-01T00:00:00Z',
  'Statement.to': '2026-12-01T00:00:00Z',
};

type Schema = Record<string, unknown>;

/** The example for a field, if the vocabulary has one that fits its schema. */
export function exampleFor(name: string, schema: Schema, component = ''): unknown {
  const qualified = `${component}.${name}`;
  const value = qualified in BY_COMPONENT ? BY_COMPONENT[qualified] : BY_NAME[name];
  return value !== undefined && fits(value, schema) ? value : undefined;
}

/** Whether `value` could be what `schema` describes (type, bounds, pattern). */
function fits(value: unknown, schema: Schema): boolean {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (value === null) return types.includes('null');
  if (typeof value === 'number') {
    const numeric = types.includes('integer') || types.includes('number');
    return numeric && inBounds(value, schema);
  }
  if (typeof value === 'string') {
    if (!types.includes('string')) return false;
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return false;
    if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f-]{27}$/.test(value)) return false;
    return typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(value);
  }
  if (Array.isArray(value)) return types.includes('array');
  return types.includes('object') && schema.properties === undefined;
}

function inBounds(value: number, schema: Schema): boolean {
  const { minimum, maximum } = schema;
  return (
    (typeof minimum !== 'number' || value >= minimum) &&
    (typeof maximum !== 'number' || value <= maximum)
  );
}

/** Whether a schema already states its value (Swagger UI then shows that). */
function stated(schema: Schema): boolean {
  return ['example', 'examples', 'const', 'enum', 'default'].some((k) => k in schema);
}

/**
 * Sets `example` on every field of `schema` (walked in place, through arrays, unions and
 * nested objects) that states no value of its own and that the vocabulary has a value for.
 */
export function addExamples(schema: unknown, component: string, name = ''): void {
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Schema;
  if (name && !stated(node) && node.$ref === undefined) {
    const example = exampleFor(name, node, component);
    if (example !== undefined) node.example = example;
  }
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const [key, child] of Object.entries(properties)) addExamples(child, component, key);
  if (node.items) addExamples(node.items, component, name);
  for (const union of ['anyOf', 'oneOf', 'allOf']) {
    for (const branch of (node[union] as unknown[] | undefined) ?? []) {
      addExamples(branch, component, name);
    }
  }
}
