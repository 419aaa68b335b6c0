// The npm registry mirror on our build machines lacks some platform-specific optional packages
// (e.g. @swc/core-darwin-arm64), so `npm install` leaves them out of package-lock.json and
// `npm ci` then refuses the lockfile. This adds a lock entry for each such optional dependency
// (with its os/cpu, so npm skips it on other platforms and fetches it where it applies).
// Run after changing dependencies: `node scripts/lockfile-platforms.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = { darwin: 'darwin', linux: 'linux', win32: 'win32', freebsd: 'freebsd', android: 'android' };
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  arm: 'arm',
  ia32: 'ia32',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
};
let added = 0;

for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key] || lock.packages[`${path}/${key}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.find((p) => OS[p]);
    const cpu = parts.find((p) => CPU[p]);
    if (!os || !cpu) continue;
    lock.packages[key] = {
      version,
      cpu: [cpu],
      os: [os],
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries to package-lock.json`);
