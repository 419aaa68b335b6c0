import { execFile } from 'node:child_process';
import { extname } from 'node:path';

const CHECK_TIMEOUT_MS = 5_000;
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * Where a plugin's syntax error is. Node reports an ES module's syntax error without a position,
 * so a JavaScript file is parsed again by `node --check`, which prints `file:line`, the line and a
 * caret; Node's type stripping already gives that header for TypeScript, in the error itself.
 * `failure` is the sandbox's message: `SyntaxError: …`, then any header Node wrote.
 */
export async function locateSyntaxError(file: string, failure: string): Promise<SourcePosition | undefined> {
  if (!failure.startsWith('SyntaxError')) return undefined;
  const inMessage = positionIn(failure);
  if (inMessage || TYPESCRIPT.has(extname(file))) return inMessage;
  return positionIn(await syntaxCheck(file));
}

/**
 * Reads Node's header anywhere in `text`: `path:line`, then the source (a few lines of it for
 * TypeScript) with a caret line under the error. Without a caret (the file ended too early), the
 * error is at the end of that line.
 */
export function positionIn(text: string): SourcePosition | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => /^\S.*:\d+$/.test(line));
  if (at < 0) return undefined;
  const line = Number(/:(\d+)$/.exec(lines[at])![1]);
  const caret = lines.slice(at + 1, at + 8).find((text) => /^\s*\^+\s*$/.test(text));
  if (caret) return { line, column: caret.indexOf('^') + 1 };
  return { line, column: (lines[at + 1]?.trimEnd().length ?? 0) + 1 };
}

function syntaxCheck(file: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--check', file],
      { timeout: CHECK_TIMEOUT_MS, env: {}, encoding: 'utf8' },
      (_err, _stdout, stderr) => resolve(stderr ?? ''),
    );
  });
}
