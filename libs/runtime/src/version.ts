import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The platform's version, from the nearest package.json above the running file (src or dist). */
export function platformVersion(from = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'agentchassis') return pkg.version ?? '0.0.0';
  }
  return '0.0.0';
}
