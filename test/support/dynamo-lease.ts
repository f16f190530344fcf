import { afterAll, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The loopback URL of the project's DynamoDB Local pool (test/support/dynamo-pool.ts). */
    dynamoPool: string;
    /** A DynamoDB every file shares (DYNAMODB_ENDPOINT): no pool then. */
    dynamoEndpoint: string;
  }
}

let leased: string | undefined;

/**
 * The DynamoDB Local this test file leased for its whole run (the project's setup file takes it
 * before the file's first hook and gives it back after its last); throws in a project whose
 * global setup starts none.
 */
export function dynamoEndpoint(): string {
  if (leased === undefined) throw new Error('no DynamoDB Local leased: is the setup file set?');
  return leased;
}

/** Like dynamoEndpoint(), undefined where the project has no DynamoDB Local. */
export function dynamoEndpointIfAny(): string | undefined {
  return leased;
}

/** Leases one for this file; called once, at the top of the project's setup file. */
export async function leaseDynamoForFile(): Promise<void> {
  const shared = inject('dynamoEndpoint');
  if (shared) {
    leased = shared;
    return;
  }
  const pool = inject('dynamoPool');
  if (!pool) return;
  const answer = await fetch(`${pool}/lease`, { method: 'POST' });
  if (!answer.ok)
    throw new Error(`the DynamoDB Local pool refused a lease: ${await answer.text()}`);
  const endpoint = ((await answer.json()) as { endpoint: string }).endpoint;
  leased = endpoint;
  afterAll(async () => {
    await fetch(`${pool}/release?endpoint=${encodeURIComponent(endpoint)}`, { method: 'POST' });
  });
}
