import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes';

/** Replaces the `## <heading>` section of docs/benchmarks.md with `section` (appends it when new). */
export function writeDocSection(heading: string, section: string): void {
  const file = join(ROOT, 'docs/benchmarks.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = text.indexOf(`## ${heading}`);
  if (start < 0) return writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
  const next = text.indexOf('\n## ', start + 1);
  writeFileSync(file, `${text.slice(0, start)}${section}${next < 0 ? '' : text.slice(next)}`);
}
