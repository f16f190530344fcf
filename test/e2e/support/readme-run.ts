import { spawn } from 'node:child_process';
import type { ReadmeBlock } from './readme';
import type { LocalStack } from './stack';

/**
 * Runs the README's shell blocks as a newcomer pastes them, in order, into ONE bash
 * (`-euo pipefail`: a failing command or an unset variable stops it) against a stack on free
 * ports: the only change is the default ports (3000, 4566) becoming the stack's. Each block's
 * output is kept apart, and a `curl … # balance B, available A` comment is turned into a
 * checkable `@@ balance B, available A` line after the account it printed.
 */
export interface BlockOutput {
  readonly heading: string;
  readonly output: string;
}

export interface WalkthroughRun {
  readonly code: number | null;
  readonly output: string;
  readonly blocks: BlockOutput[];
}

const MARK = '@@@ readme block ';

export function onStack(script: string, stack: LocalStack): string {
  return script
    .replaceAll('127.0.0.1:3000', `127.0.0.1:${stack.httpPort}`)
    .replaceAll('127.0.0.1:4566', `127.0.0.1:${stack.sqsPort}`)
    .replaceAll('localhost:4566', `localhost:${stack.sqsPort}`)
    .replace(
      /^(curl .*?)\s+# (balance -?\d+, available -?\d+)$/gm,
      (_line, command: string, claim: string) => `${command}; echo; echo "@@ ${claim}"`,
    );
}

export function runWalkthrough(
  blocks: readonly ReadmeBlock[],
  stack: LocalStack,
  env: Record<string, string>,
) {
  const script = blocks
    .map((block, i) => `echo '${MARK}${i}'\n${onStack(block.script, stack)}\necho`)
    .join('\n');
  return new Promise<WalkthroughRun>((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: process.cwd(),
      // The CLI finds the stack as a reader's shell would after `npm start` on these ports.
      env: {
        ...process.env,
        PORT: String(stack.httpPort),
        SQS_PORT: String(stack.sqsPort),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const add = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.once('error', reject);
    child.once('close', (code) => {
      const parts = output.split(new RegExp(`^${MARK}(\\d+)$`, 'm'));
      const outputs: BlockOutput[] = [];
      for (let i = 1; i < parts.length; i += 2) {
        const block = blocks[Number(parts[i])];
        outputs.push({ heading: block?.heading ?? '', output: parts[i + 1] ?? '' });
      }
      resolve({ code, output, blocks: outputs });
    });
  });
}

/** Every top-level JSON object in the output, in order (curl prints bodies without a newline). */
export function jsonObjects(output: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < output.length; i++) {
    const ch = output[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{' && depth++ === 0) start = i;
    else if (ch === '}' && depth > 0 && --depth === 0) {
      const text = output.slice(start, i + 1);
      try {
        objects.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        // Braces in a log line or a shell function, not an answer.
      }
    }
  }
  return objects;
}

/** Each `@@ balance B, available A` claim against the account JSON printed just before it. */
export function claims(output: string) {
  const parts = output.split(/^@@ /m);
  return parts.slice(1).map((part, i) => {
    const claim = /^balance (-?\d+), available (-?\d+)/.exec(part);
    const account = jsonObjects(parts[i] ?? '').at(-1) ?? {};
    return {
      claimed: [Number(claim?.[1]), Number(claim?.[2])],
      actual: [account.balance, account.available],
    };
  });
}
