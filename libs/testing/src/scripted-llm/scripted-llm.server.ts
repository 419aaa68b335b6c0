import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicWire } from './anthropic-wire';
import { embeddingsReply } from './embeddings-wire';
import { readJson, sendJson, sendSse, thinkFor } from './http-io';
import { openAiWire } from './openai-wire';
import { RequestLog, type RecordedRequest } from './request-log';
import { ScriptError, type Script } from './script';
import { ScriptPlayer, type PlannedReply } from './script-player';
import { DEFAULT_MODEL, WireError, nowSeconds, type WireFormat, type WireRequest } from './wire-common';
import { PromptCache, type PromptCacheOptions } from './prompt-cache';
import { replyTokens } from './prompt-tokens';

export interface ScriptedLlmOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 by default; 0.0.0.0 to serve other containers. */
  host?: string;
  script?: Script;
  /** Latency of every reply unless the script or the reply says otherwise. */
  latencyMs?: number;
  /** Older recorded requests are dropped past this many (default 1,000). */
  maxRecordedRequests?: number;
  /**
   * Emulates a provider's prompt cache (prompt-cache.ts): prompts are counted with a real
   * tokenizer (o200k_base) and a prefix an earlier request cached is reported cached, in each
   * wire's own usage fields. Off by default: a rough count (characters / 4), nothing cached.
   */
  promptCache?: boolean | PromptCacheOptions;
}

export interface ScriptedLlm {
  /** Base URL ending in /v1, ready for an OpenAI or Anthropic client. */
  url: string;
  port: number;
  setScript(script: Script): void;
  requests(): RecordedRequest[];
  clearRequests(): void;
  close(): Promise<void>;
}

type AnyWire = WireFormat<WireRequest>;

const MODEL_ROUTES: Record<string, AnyWire> = {
  '/v1/chat/completions': openAiWire,
  '/chat/completions': openAiWire,
  '/v1/messages': anthropicWire,
  '/messages': anthropicWire,
};

/**
 * A stand-in for an LLM provider that speaks the real OpenAI and Anthropic wire formats and
 * answers from a script. The only model stand-in in the project: tests, demos and benchmarks.
 */
export async function startScriptedLlm(options: ScriptedLlmOptions = {}): Promise<ScriptedLlm> {
  const player = new ScriptPlayer(options.script ?? {}, options.latencyMs ?? 0);
  const log = new RequestLog(options.maxRecordedRequests ?? 1_000);
  const { promptCache } = options;
  const cache = promptCache ? new PromptCache(promptCache === true ? {} : promptCache) : undefined;
  const server = createServer((req, res) => {
    route(req, res, { player, log, cache }).catch((error: unknown) => answerFailure(req, res, error));
  });
  // Outlive the clients' pools so a pooled socket is never closed under a request.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const reachableHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${reachableHost}:${port}/v1`,
    port,
    setScript: (script) => player.load(script),
    requests: () => log.list(),
    clearRequests: () => log.clear(),
    close: () => close(server),
  };
}

/** What the server keeps between requests. */
interface ServerState {
  player: ScriptPlayer;
  log: RequestLog;
  cache?: PromptCache;
}

async function route(req: IncomingMessage, res: ServerResponse, state: ServerState): Promise<void> {
  const { player, log } = state;
  const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '') || '/';
  const key = `${req.method} ${path}`;
  const wire = MODEL_ROUTES[path];
  if (wire && req.method === 'POST') return answerModel(req, res, wire, state);
  if (key === 'POST /v1/embeddings' || key === 'POST /embeddings') return answerEmbeddings(req, res, log);
  if (key === 'GET /v1/models' || key === 'GET /models') return sendJson(res, 200, modelList(req));
  if (key === 'PUT /_script') return loadScript(req, res, player);
  if (key === 'GET /_requests') return sendJson(res, 200, log.list());
  if (key === 'DELETE /_requests') {
    log.clear();
    return sendJson(res, 200, { ok: true });
  }
  throw new WireError(404, `Unknown request URL: ${req.method} ${path}`);
}

async function answerModel(
  req: IncomingMessage,
  res: ServerResponse,
  wire: AnyWire,
  { player, log, cache }: ServerState,
): Promise<void> {
  const body = await readJsonObject(req);
  const request = wire.read(body, req.headers);
  const { conversation, index } = request.turn;
  const entry = log.add({
    method: 'POST',
    path: req.url ?? '',
    headers: req.headers,
    body,
    conversation,
    turn: index,
  });
  const reply = player.next(request.turn);
  if (!(await thinkFor(reply.latencyMs, res))) return;
  if (reply.status >= 400) {
    return sendJson(res, reply.status, wire.errorBody(reply.status, reply.error), retryHeaders(reply));
  }
  // a refused request caches nothing, as with a real provider
  if (cache) {
    const account = cache[wire.cache](wire.promptPieces(body));
    request.account = account;
    entry.usage = {
      prompt: reply.usage?.prompt_tokens ?? account.prompt,
      cached: account.cached,
      written: account.written,
      completion: reply.usage?.completion_tokens ?? replyTokens(reply),
    };
  }
  if (request.stream) return sendSse(res, wire.stream(reply, request));
  sendJson(res, 200, wire.complete(reply, request));
}

/** Embeddings need no script: they are computed from the text (`scriptedEmbedding`). */
async function answerEmbeddings(req: IncomingMessage, res: ServerResponse, log: RequestLog): Promise<void> {
  const body = await readJsonObject(req);
  log.add({ method: 'POST', path: req.url ?? '', headers: req.headers, body });
  sendJson(res, 200, embeddingsReply(body));
}

async function loadScript(req: IncomingMessage, res: ServerResponse, player: ScriptPlayer): Promise<void> {
  const script = await readJson(req);
  try {
    player.load(script as Script);
  } catch (error) {
    if (error instanceof ScriptError) throw new WireError(400, error.message);
    throw error;
  }
  sendJson(res, 200, { ok: true });
}

async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readJson(req);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new WireError(400, 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

function retryHeaders(reply: PlannedReply): Record<string, string> {
  if (reply.retryAfterMs === undefined) return {};
  return {
    'retry-after-ms': String(reply.retryAfterMs),
    'retry-after': String(Math.ceil(reply.retryAfterMs / 1000)),
  };
}

function modelList(req: IncomingMessage): object {
  if (req.headers['anthropic-version']) {
    const model = {
      type: 'model',
      id: DEFAULT_MODEL,
      display_name: 'Scripted model',
      created_at: new Date(0).toISOString(),
    };
    return { data: [model], has_more: false, first_id: DEFAULT_MODEL, last_id: DEFAULT_MODEL };
  }
  return {
    object: 'list',
    data: [{ id: DEFAULT_MODEL, object: 'model', created: nowSeconds(), owned_by: 'agentchassis' }],
  };
}

function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const status = error instanceof WireError ? error.status : 500;
  const message = error instanceof Error ? error.message : String(error);
  const wire = MODEL_ROUTES[(req.url ?? '').split('?')[0]] ?? openAiWire;
  if (res.headersSent) return void res.destroy();
  sendJson(res, status, wire.errorBody(status, message));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // A deep backlog: a benchmark opens 1,000 connections at once.
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
