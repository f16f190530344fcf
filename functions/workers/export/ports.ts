import type { ExportResult } from '../../core/export-run';
import type { ExportJob } from '../../core/tasks';

/** The export worker's outbound ports: where the file goes and where progress is reported. */

/** One object being written; bytes go out in order, memory stays bounded by the adapter. */
export interface ObjectWriter {
  /** Resolves once the chunk is accepted (waits while the upload is behind). */
  write(chunk: Uint8Array): Promise<void>;
  /** Completes the object; only then does it exist. */
  complete(): Promise<void>;
  /** Gives up: no object, no parts left behind. Never throws. */
  abort(): Promise<void>;
}

export interface ObjectSink {
  open(key: string, contentType: string): ObjectWriter;
}

export type ReportedStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED';

export interface ExecutionUpdate {
  readonly job: ExportJob;
  readonly sequence: number;
  readonly status: ReportedStatus;
  readonly progress: number;
  readonly result?: ExportResult;
}

/** Reports through the signed callback endpoint; resolves with the answer's `outcome`. */
export interface ExecutionReporter {
  report(update: ExecutionUpdate): Promise<string>;
}
