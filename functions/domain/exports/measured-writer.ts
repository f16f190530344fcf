import { createHash } from 'node:crypto';
import type { ObjectWriter } from './port';

/**
 * Gathers encoded text into chunks of about `chunkBytes`, and counts and hashes exactly the
 * bytes it hands to the object writer, so `bytes` and `sha256` describe the object as written.
 */
export class MeasuredWriter {
  private readonly hash = createHash('sha256');
  private pending: string[] = [];
  private pendingLength = 0;
  private written = 0;

  constructor(
    private readonly writer: ObjectWriter,
    private readonly chunkBytes = 64 * 1024,
  ) {}

  async add(text: string): Promise<void> {
    if (text === '') return;
    this.pending.push(text);
    // UTF-16 length: a cheap lower bound of the UTF-8 size, enough to size chunks.
    this.pendingLength += text.length;
    if (this.pendingLength >= this.chunkBytes) await this.flush();
  }

  /** Writes what is left and completes the object. */
  async finish(): Promise<{ bytes: number; sha256: string }> {
    await this.flush();
    await this.writer.complete();
    return { bytes: this.written, sha256: this.hash.digest('hex') };
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingLength = 0;
    this.hash.update(chunk);
    this.written += chunk.length;
    await this.writer.write(chunk);
  }
}
