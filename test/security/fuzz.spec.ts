import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServiceProcess, startService } from '@app/testing';
import { type ChatStack, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_fuzz_admin_key_9d2f61c0a7e34b';
const REQUESTS = 1_200;

/** A small deterministic PRNG, so a failure can be replayed from its seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ROUTES: [method: string, path: string][] = [
  ['POST', '/api/v1/chat'],
  ['GET', '/api/v1/sessions/:id'],
  ['DELETE', '/api/v1/sessions/:id'],
  ['POST', '/api/v1/runs'],
  ['GET', '/api/v1/runs/:id'],
  ['POST', '/api/v1/runs/:id/cancel'],
  ['POST', '/api/v1/runs/:id/approve'],
  ['POST', '/api/v1/runs/:id/reject'],
  ['GET', '/api/v1/agents'],
  ['GET', '/api/v1/agents/:id'],
  ['POST', '/api/v1/agents'],
  ['GET', '/api/v1/functions'],
  ['GET', '/api/v1/functions/:id'],
  ['POST', '/api/v1/functions/:id/invoke'],
  ['GET', '/api/v1/delays'],
  ['POST', '/api/v1/delays'],
  ['GET', '/api/v1/delays/:id'],
  ['DELETE', '/api/v1/delays/:id'],
  ['GET', '/api/v1/crons'],
  ['POST', '/api/v1/crons'],
  ['GET', '/api/v1/crons/:id'],
  ['DELETE', '/api/v1/crons/:id'],
  ['GET', '/api/v1/keys'],
  ['POST', '/api/v1/keys'],
  ['DELETE', '/api/v1/keys/:id'],
];

const NAMES = [
  '..%2F..%2Fetc%2Fpasswd',
  '../../etc/passwd',
  '%00',
  'fn.exec.>',
  '*',
  '>',
  'a b',
  '%E2%80%AE',
  'x'.repeat(3000),
  'send_message',
  'DROP%20TABLE',
  '%F0%9F%92%A5',
  'ses_unknown',
  'run_unknown',
  '%25',
  '..',
  'a%2Fb',
  'null',
];
const JUNK = [
  '',
  '\u0000',
  '\uFFFF',
  '🦄'.repeat(50),
  'ǅ\u202E',
  '\ud800',
  'a'.repeat(40_000),
  '<call name="x"></call>',
  "'; --",
];
const FIELDS = [
  'message',
  'session_id',
  'agent',
  'stream',
  'params',
  'timeout_ms',
  'name',
  'run_at',
  'function',
  'cron_expr',
  'until',
  'max_runs',
  'scopes',
  'principal',
  'system_prompt',
  'allowed_tools',
  '__proto__',
  'constructor',
];

function junkValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * 9);
  if (pick === 0) return Math.floor(random() * 2 ** 40) - 2 ** 39;
  if (pick === 1) return random() < 0.5;
  if (pick === 2) return null;
  if (pick === 3) return JUNK[Math.floor(random() * JUNK.length)];
  if (pick === 4 && depth < 3)
    return Array.from({ length: Math.floor(random() * 4) }, () => junkValue(random, depth + 1));
  if (pick === 5 && depth < 3) return junkObject(random, depth + 1);
  if (pick === 6) return new Date(random() * 4e12).toISOString();
  if (pick === 7) return '0 9 * * *';
  return 1e308 * (random() < 0.5 ? 1 : -1);
}

function junkObject(random: () => number, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 5); i > 0; i--)
    object[FIELDS[Math.floor(random() * FIELDS.length)]] = junkValue(random, depth);
  return object;
}

function junkBody(random: () => number): { body?: string; type: string } {
  const pick = Math.floor(random() * 8);
  if (pick === 0) return { body: '{"broken": ', type: 'application/json' };
  if (pick === 1) return { body: JSON.stringify(junkValue(random)), type: 'application/json' };
  if (pick === 2) return { body: JSON.stringify({ huge: 'x'.repeat(1_200_000) }), type: 'application/json' };
  if (pick === 3) return { body: 'message=hello', type: 'application/x-www-form-urlencoded' };
  if (pick === 4) return { body: undefined, type: 'application/json' };
  if (pick === 5) return { body: '\u0000\uFFFE garbage', type: 'text/plain' };
  return { body: JSON.stringify(junkObject(random)), type: 'application/json' };
}

function request(random: () => number): { method: string; path: string; body?: string; type: string } {
  const [method, template] = ROUTES[Math.floor(random() * ROUTES.length)];
  const path = template.replace(':id', NAMES[Math.floor(random() * NAMES.length)]);
  return {
    method,
    path,
    ...(method === 'GET' || method === 'DELETE' ? { type: 'application/json' } : junkBody(random)),
  };
}

describe('a fuzz of malformed requests across every route (the whole platform as processes)', () => {
  let stack: ChatStack;
  const extra: ServiceProcess[] = [];

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [],
      agents: () => [],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: '100000' },
    });
    stack.llm.setScript({ fallback: 'ok' });
    const env = { ...stack.env, SCHEDULER_QUEUE_PREFIX: `fuzz-${randomUUID().slice(0, 8)}` };
    extra.push(
      ...(await Promise.all([startService('scheduler', env), startService('function-runner', env)])),
    );
  });
  afterAll(async () => {
    await Promise.all(extra.map((s) => s.stop()));
    await stack?.close();
  });

  it(`answers ${REQUESTS} malformed requests without a single 5xx, each error naming its problem`, async () => {
    const random = prng(20261122);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const send = async () => {
      const { method, path, body, type } = request(random);
      const headers: Record<string, string> = { 'content-type': type };
      if (random() < 0.9) headers.authorization = `Bearer ${ADMIN_KEY}`;
      const res = await fetch(`${stack.base}${path}`, { method, headers, body });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const text = await res.text();
      if (res.status >= 500)
        failures.push(`${method} ${path.slice(0, 80)} → ${res.status} ${text.slice(0, 200)}`);
      else if (res.status >= 400) {
        const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
        if (
          typeof error?.code !== 'string' ||
          typeof error.message !== 'string' ||
          error.message.length < 5
        ) {
          failures.push(
            `${method} ${path.slice(0, 80)} → ${res.status} without a named problem: ${text.slice(0, 200)}`,
          );
        }
      }
    };
    for (let sent = 0; sent < REQUESTS; sent += 8) await Promise.all(Array.from({ length: 8 }, send));
    expect(failures).toEqual([]);
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
    expect(statuses.get(413)).toBeGreaterThan(0);
  }, 180_000);
});
