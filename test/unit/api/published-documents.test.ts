import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { publishedDocumentsText } from '../../../functions/api/document/generate';
import { PUBLISHED_FILE, publishedDocuments } from '../../../functions/api/document/published';

describe('functions/api/document/api-document.json', () => {
  it('matches the route specs, schemas and problem table (run `npm run generate:client`)', async () => {
    const committed = await readFile(PUBLISHED_FILE, 'utf8');
    const fresh = publishedDocumentsText();
    // One line of JSON: name the first differing character, not a 360 KB diff.
    const at = [...fresh].findIndex((char, i) => char !== committed[i]);
    expect(
      fresh === committed ? 'in sync' : `stale from character ${at}: ${fresh.slice(at, at + 80)}`,
      'api-document.json is stale: run `npm run generate:client`',
    ).toBe('in sync');
  }, 30_000);
});

describe('publishedDocuments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'published-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const retention = { idempotencyRetentionSeconds: 7200, inboxRetentionSeconds: 60 };

  it('serves the file with the running retention, read once', async () => {
    const file = join(dir, 'doc.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: { openapi: '3.1.0', info: { title: 't', 'x-inbox-retention-seconds': 1 } },
        problemPages: { not_found: '<p>page</p>' },
      }),
    );
    const documents = publishedDocuments(retention, pathToFileURL(file));
    const first = await documents();
    rmSync(file);
    expect(await documents()).toBe(first);
    expect(JSON.parse(first.openapi)).toEqual({
      openapi: '3.1.0',
      info: {
        title: 't',
        'x-idempotency-retention-seconds': 7200,
        'x-inbox-retention-seconds': 60,
      },
    });
    expect(first.problemPages.not_found).toBe('<p>page</p>');
  });

  it('tries again after a failed read', async () => {
    const file = join(dir, 'late.json');
    const documents = publishedDocuments(retention, pathToFileURL(file));
    await expect(documents()).rejects.toThrow(/ENOENT/);
    writeFileSync(file, JSON.stringify({ openapi: { info: {} }, problemPages: {} }));
    expect(JSON.parse((await documents()).openapi).info['x-inbox-retention-seconds']).toBe(60);
  });
});
