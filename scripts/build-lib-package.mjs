// Builds a library of the monorepo into a self-contained npm package (its `dist`): tsc emits the
// library and every lib it reaches through the `@app/<lib>` paths of its tsconfig.build.json, then
// each `@app/<lib>` (or `@app/<lib>/<entry>`) becomes a relative path inside dist, so the tarball needs nothing from the
// monorepo. Libs listed in `typesOnly` keep only their declarations (the package imports only
// their types). Any other import must be a Node built-in or a declared (peer) dependency.
// `--clean` removes dist again (npm's postpack).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** @param {string} root the library's directory; @param {{ typesOnly?: string[] }} options */
export function buildLibPackage(root, { typesOnly = [] } = {}) {
  const dist = join(root, 'dist');
  rmSync(dist, { recursive: true, force: true });
  if (process.argv.includes('--clean')) return;

  const tsconfig = join(root, 'tsconfig.build.json');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', tsconfig], { stdio: 'inherit' });

  const targets = aliasTargets(root, dist, tsconfig);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const allowed = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const typesOnlyDirs = typesOnly.map((lib) => join(dist, lib));
  const problems = [];
  for (const file of filesUnder(dist)) {
    const typeOnlyLib = typesOnlyDirs.some((dir) => file.startsWith(`${dir}/`));
    if (typeOnlyLib && file.endsWith('.js')) {
      unlinkSync(file);
      continue;
    }
    let text = readFileSync(file, 'utf8');
    text = text.replaceAll(/(["'])@app\/([\w-]+(?:\/[\w-]+)?)\1/g, (whole, _quote, lib) => {
      const target = targets.get(lib);
      if (!target) return whole;
      const path = relative(dirname(file), target).replaceAll('\\', '/');
      return `'${path.startsWith('.') ? path : `./${path}`}'`;
    });
    if (typeOnlyLib) text = text.replace(/^import ["']reflect-metadata["'];\n/m, '');
    for (const [, specifier] of text.matchAll(MODULE_SPECIFIER))
      if (!specifier.startsWith('.') && !isBuiltin(specifier) && !allowed.has(packageOf(specifier)))
        problems.push(`${relative(root, file)} imports ${specifier}`);
    writeFileSync(file, text);
  }
  if (problems.length) {
    console.error(`the package would depend on undeclared modules:\n${problems.join('\n')}`);
    process.exit(1);
  }
}

/** What a module statement, `require(…)` or `import(…)` names (not text that merely reads "from '…'"). */
const MODULE_SPECIFIER =
  /(?:^\s*(?:import|export)\b[^;]*?\bfrom\s*|^\s*import\s*|\brequire\(|\bimport\()["']([^"']+)["']/gm;

/** `@app/<lib>` → where its entry lands in dist (rootDir is the libs folder). */
function aliasTargets(root, dist, tsconfig) {
  const { compilerOptions } = JSON.parse(readFileSync(tsconfig, 'utf8'));
  const base = resolve(root, compilerOptions.baseUrl ?? '.');
  const libs = resolve(root, compilerOptions.rootDir ?? '..');
  const targets = new Map();
  for (const [alias, [path]] of Object.entries(compilerOptions.paths ?? {})) {
    const source = resolve(base, path);
    const entry = existsSync(source) && statSync(source).isDirectory() ? join(source, 'index') : source;
    targets.set(alias.replace(/^@app\//, ''), join(dist, relative(libs, entry)));
  }
  return targets;
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || builtinModules.includes(specifier);
}

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
