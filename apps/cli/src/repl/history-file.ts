import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const KEPT = 500;

/** Line history across REPL sessions in `~/.agentchassis_history` (newest last, as shells keep it). */
export class HistoryFile {
  constructor(private readonly path: string) {}

  static inHome(home: string | undefined): HistoryFile | undefined {
    return home ? new HistoryFile(join(home, '.agentchassis_history')) : undefined;
  }

  /** Newest first, as readline's `history` option wants it. */
  load(): string[] {
    try {
      return readFileSync(this.path, 'utf8').split('\n').filter(Boolean).slice(-KEPT).reverse();
    } catch {
      return [];
    }
  }

  append(line: string): void {
    try {
      appendFileSync(this.path, `${line.replaceAll('\n', ' ')}\n`, { mode: 0o600 });
    } catch {
      // History is a convenience: a read-only home must not stop the conversation.
    }
  }
}
