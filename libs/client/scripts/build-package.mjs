// Builds the packable client into libs/client/dist: tsc emits its JavaScript and the declarations
// of both the client and the contracts types it uses; the contracts' JavaScript is dropped (the
// client imports only their types) and `@app/contracts` becomes a relative path, so the tarball
// needs nothing from the monorepo. `--clean` removes dist again (npm's postpack).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
if (process.argv.includes('--clean')) process.exit(0);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

const contracts = join(dist, 'contracts/src/index');
const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
const problems = [];
for (const file of files(dist)) {
  const inContracts = file.startsWith(join(dist, 'contracts'));
  if (inContracts && file.endsWith('.js')) {
    unlinkSync(file);
    continue;
  }
  let text = readFileSync(file, 'utf8');
  const target = relative(dirname(file), contracts).replaceAll('\\', '/');
  text = text.replaceAll(/(["'])@app\/contracts\1/g, `'${target.startsWith('.') ? target : `./${target}`}'`);
  if (inContracts) text = text.replace(/^import ["']reflect-metadata["'];\n/m, '');
  for (const [, specifier] of text.matchAll(/(?:from |require\(|import\()["']([^"']+)["']/g))
    if (!specifier.startsWith('.')) problems.push(`${relative(root, file)} imports ${specifier}`);
  writeFileSync(file, text);
}
if (problems.length) {
  console.error(`the package would depend on other modules:\n${problems.join('\n')}`);
  process.exit(1);
}
