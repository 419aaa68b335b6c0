import { type Dirent, existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

export interface PluginScan {
  exists: boolean;
  /** Absolute paths of the plugin modules: top-level files, not starting with `_` or `.`. */
  files: string[];
  /** Changes whenever any file under the folder (node_modules aside) is added, changed or removed. */
  fingerprint: string;
}

const MODULE = /^[^_.][^/]*\.(js|mjs|cjs|ts|mts|cts)$/;
const MAX_ENTRIES = 2_000;

export async function scanPlugins(dir: string): Promise<PluginScan> {
  if (!existsSync(dir)) return { exists: false, files: [], fingerprint: 'missing' };
  const top = await readdir(dir, { withFileTypes: true });
  const files = top
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && MODULE.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(dir, e.name))
    .sort();
  const marks: string[] = [];
  await walk(dir, dir, marks);
  return { exists: true, files, fingerprint: marks.sort().join('\n') };
}

async function walk(root: string, dir: string, marks: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (marks.length >= MAX_ENTRIES || entry.name === 'node_modules' || entry.name.startsWith('.git'))
      continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      await walk(root, path, marks);
      continue;
    }
    const info = await stat(path).catch(() => undefined);
    marks.push(`${relative(root, path)}:${info?.size ?? '-'}:${info?.mtimeMs ?? '-'}`);
  }
}
