/**
 * The entry of a sandbox process. It runs under Node's permission model (read access to the
 * plugin folder only), with an empty environment and, where the OS allows, no network. It loads
 * plugin modules and runs one call at a time for the runner, which kills it on timeout.
 *
 * Self-contained on purpose: it imports only Node built-ins, so Node can run it from source
 * (types stripped) as well as compiled.
 */
import { pathToFileURL } from 'node:url';
import type { CallContext, ChildMessage, ParentMessage, PluginDescription } from './sandbox-protocol';

interface Plugin extends PluginDescription {
  execute: (params: Record<string, unknown>, ctx: unknown) => unknown;
}

// A real dynamic import, whatever the build does to `import()` (compiled to CommonJS it may become a
// `require()`, which takes no file URL and cannot load every ES module).
const importModule = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<{ default?: unknown }>;
const plugins = new Map<string, Promise<Plugin>>();
const pendingHttp = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
let nextHttpId = 1;
let currentCall: number | undefined;

function send(message: ChildMessage, then?: () => void): void {
  process.send?.(message, undefined, {}, then);
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : 'the function failed';
}

/** A syntax error says so, with the `path:line`, source and caret lines Node may have put first in its stack. */
function loadFailure(err: unknown): string {
  if (!(err instanceof SyntaxError)) return messageOf(err);
  const header = (err.stack ?? '').split('\n\n')[0];
  const located = /:\d+\n/.test(header) && !header.startsWith('SyntaxError') ? `\n${header}` : '';
  return `SyntaxError: ${err.message}${located}`;
}

function load(file: string): Promise<Plugin> {
  let plugin = plugins.get(file);
  if (!plugin) {
    plugin = importModule(pathToFileURL(file).href).then(
      (mod) => pluginOf(mod),
      (err: unknown) => {
        throw new Error(loadFailure(err));
      },
    );
    plugins.set(file, plugin);
  }
  return plugin;
}

function pluginOf(mod: { default?: unknown }): Plugin {
  const candidate = (mod.default as { default?: unknown } | undefined)?.default ?? mod.default ?? mod;
  if (typeof (candidate as Plugin)?.execute !== 'function') {
    throw new Error('the module must export default { name, description, parameters, execute }');
  }
  return candidate as Plugin;
}

function http(request: unknown): Promise<unknown> {
  const id = nextHttpId++;
  send({ type: 'http', id, request });
  return new Promise((resolve, reject) => pendingHttp.set(id, { resolve, reject }));
}

function logger() {
  const log = (level: 'debug' | 'info' | 'warn' | 'error') => (message: unknown, fields?: unknown) =>
    send({ type: 'log', level, message: String(message).slice(0, 2_000), fields });
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

function contextFor(context: CallContext, signal: AbortSignal) {
  return { ...context, signal, logger: logger(), http };
}

/**
 * Aborts, as `AbortSignal.timeout` would, at the call's deadline. Unlike it, disarmed when the call
 * ends: its timer would otherwise wake this process once per call, long after the call.
 */
function untilDeadline(deadline: number): { signal: AbortSignal; disarm: () => void } {
  const controller = new AbortController();
  const timeout = () =>
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  const timer = setTimeout(timeout, Math.max(1, deadline - Date.now()));
  return { signal: controller.signal, disarm: () => clearTimeout(timer) };
}

async function describe(id: number, file: string): Promise<void> {
  const plugin = await load(file);
  const { name, description, parameters, timeout_ms, idempotent } = plugin;
  send({ type: 'loaded', id, definition: { name, description, parameters, timeout_ms, idempotent } });
}

async function call(id: number, message: Extract<ParentMessage, { type: 'call' }>): Promise<void> {
  currentCall = id;
  const plugin = await load(message.file);
  const deadline = untilDeadline(message.context.deadline);
  let value: unknown;
  try {
    value = await plugin.execute(message.params, contextFor(message.context, deadline.signal));
  } finally {
    deadline.disarm();
  }
  try {
    send({ type: 'result', id, value: value ?? null });
  } catch (err) {
    send({ type: 'failed', id, message: `the result cannot be returned: ${messageOf(err)}` });
  }
}

function answerHttp(message: Extract<ParentMessage, { type: 'http-reply' }>): void {
  const pending = pendingHttp.get(message.id);
  pendingHttp.delete(message.id);
  if (message.ok) pending?.resolve(message.value);
  else pending?.reject(new Error(message.message));
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'http-reply') return answerHttp(message);
  const work = message.type === 'load' ? describe(message.id, message.file) : call(message.id, message);
  work.catch((err: unknown) => send({ type: 'failed', id: message.id, message: messageOf(err) }));
});

function crash(err: unknown): void {
  const where = currentCall === undefined ? '' : ' during a call';
  const exit = () => process.exit(70);
  setTimeout(exit, 1_000).unref();
  try {
    send({ type: 'crashed', message: `uncaught error${where}: ${messageOf(err)}` }, exit);
  } catch {
    exit();
  }
}

process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
