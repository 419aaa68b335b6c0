import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A unique prefix, so this file's functions never meet another test's on the shared NATS. */
export function uniqueNamespace(letter: string): string {
  return `${letter}${Date.now().toString(36)}${process.pid}`;
}

/** The custom functions the cross-process tests use, named `<ns>_<name>`. */
export function testPlugins(ns: string): Record<string, string> {
  const plugin = (name: string, body: string, properties = '{}') =>
    `export default { name: '${ns}_${name}', description: '${name} (test)', parameters: { type: 'object', properties: ${properties} }, ${body} };`;
  return {
    'noop.mjs': plugin('noop', 'async execute() { return { message: "ok" }; }'),
    'sleep.mjs': plugin(
      'sleep',
      'execute(p) { return new Promise((r) => setTimeout(() => r({ message: "slept" }), p.ms ?? 1000)); }',
      '{ ms: { type: "integer" } }',
    ),
    'spin.mjs': plugin('spin', 'execute() { for (;;) {} }'),
    'fail.mjs': plugin('fail', 'async execute() { throw new Error("the disk is full"); }'),
    'peek.mjs': `import { readFileSync } from 'node:fs';
      import net from 'node:net';
      const attempt = (fn) => { try { fn(); return 'allowed'; } catch (e) { return e.code ?? e.message; } };
      const connect = () => new Promise((resolve) => {
        const s = net.connect(4222, '127.0.0.1');
        s.on('connect', () => { s.destroy(); resolve('connected'); });
        s.on('error', (e) => resolve(e.code));
      });
      ${plugin('peek', 'async execute() { return { env: { ...process.env }, passwd: attempt(() => readFileSync("/etc/passwd")), network: await connect() }; }')}`,
    'fetch.mjs': plugin(
      'fetch',
      'async execute(p, ctx) { return ctx.http({ url: p.url }); }',
      '{ url: { type: "string" } }',
    ),
  };
}

export function pluginFolder(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-fns-')));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
