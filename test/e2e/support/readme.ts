import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The README's fenced blocks, found by the heading they sit under and their language: the
 * walkthrough a newcomer copies (test/e2e/readme.test.ts runs it word for word) and the sample
 * outputs it shows.
 */
const README_FILE = join(process.cwd(), 'README.md');
export const README = readFileSync(README_FILE, 'utf8');

/** Writes `next` where the README has the block `current` (UPDATE_README=1 regenerates samples). */
export function replaceReadmeBlock(current: string, next: string): void {
  const text = readFileSync(README_FILE, 'utf8');
  if (!text.includes(current)) throw new Error('the block is not in README.md');
  writeFileSync(README_FILE, text.replace(current, next));
}

/** The blocks of `lang` between `## <heading>` and the next `## `. */
export function blocksUnder(heading: string, lang: string): string[] {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no "## ${heading}"`);
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (m) => m[1] ?? '',
  );
}

/** A shell block of the README, in reading order, with the `## ` heading it sits under. */
export interface ReadmeBlock {
  readonly heading: string;
  readonly script: string;
  /** Why the walkthrough does not run it (`<!-- readme-test: not run, <why> -->` above it). */
  readonly notRun?: string;
}

const NOT_RUN = /^<!-- readme-test: not run, (.+) -->$/;

/** Every ```sh block of the README, in order: what a newcomer pastes, top to bottom. */
export function shellBlocks(text = README): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('## ')) heading = line.slice(3);
    if (line !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`README: the block at line ${i + 1} is not closed`);
    const notRun = NOT_RUN.exec(lines[i - 1] ?? '')?.[1];
    const script = `${lines.slice(i + 1, end).join('\n')}\n`;
    blocks.push({ heading, script, ...(notRun ? { notRun } : {}) });
    i = end;
  }
  return blocks;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;

/**
 * A sample output as the README prints it: ids, hashes, times and URLs differ on every run, so
 * they are shortened to what the README shows (`a9bb946c-…`, `…`), the nth id of a run always
 * to the nth of a fixed list, so that the README's text is exactly what a run normalizes to.
 */
export function asReadmeSample(output: string, ports: { http: number; sqs: number }): string {
  const ids = new Map<string, string>();
  const idFor = (uuid: string) => {
    if (!ids.has(uuid)) ids.set(uuid, SAMPLE_IDS[ids.size % SAMPLE_IDS.length] ?? '');
    return `${ids.get(uuid)}-…`;
  };
  return output
    .replaceAll(`127.0.0.1:${ports.http}`, '127.0.0.1:3000')
    .replaceAll(`127.0.0.1:${ports.sqs}`, '127.0.0.1:4566')
    .replace(/"sha256": "[0-9a-f]{64}"/g, '"sha256": "…"')
    .replace(/"url": "(http:\/\/[^/]+\/[^/]+\/exports\/)[^"]*"/g, '"url": "$1…"')
    .replace(/"urlExpiresAt": "[^"]*"/g, '"urlExpiresAt": "…"')
    .replace(/(valid until )[^)]*\)/g, '$1…)')
    .replace(/curl -sS '[^']*'/g, "curl -sS '…'")
    .replace(UUID, idFor)
    .replace(ISO, '2026-…');
}

/** Stand-ins for a run's ids, in order of appearance (what the README shows). */
const SAMPLE_IDS = [
  'a9bb946c',
  '3f1c2d7e',
  'c8556693',
  '5e1f0b42',
  'aebc655b',
  'a2c4b171',
  '0d0c9e13',
  '7b2e4f60',
  '91d3a5c8',
  'e4f67a21',
  '6b0d2c94',
  'f3a81e57',
  '28c7d0b3',
  'b95e4a16',
  '4d21f8ce',
  'c07b39a2',
];
