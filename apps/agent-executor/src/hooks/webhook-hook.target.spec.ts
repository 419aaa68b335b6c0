import { describe, expect, it } from 'vitest';
import type { HookContext } from '@app/contracts';
import type { ExchangeRequest, ExchangeResponse } from '@app/functions';
import { checkWebhooks, webhookGuard } from './webhook-guard';
import { webhookHookTarget } from './webhook-hook.target';

const context: HookContext = {
  event: 'before_tool',
  run_id: 'run_1',
  session_id: 'ses_1',
  agent: 'a',
  turn_index: 1,
};

function fakeExchange(status: number, body: string) {
  const requests: ExchangeRequest[] = [];
  const exchange = (request: ExchangeRequest): Promise<ExchangeResponse> => {
    requests.push(request);
    return Promise.resolve({ status, headers: {}, body: Buffer.from(body), truncated: false });
  };
  return { exchange, requests };
}

function targetFor(url: string, resolvesTo: string, exchange: ReturnType<typeof fakeExchange>['exchange']) {
  const guard = webhookGuard(['hooks.example.com'], {});
  Object.assign(guard, { resolve: () => Promise.resolve([{ address: resolvesTo, family: 4 }]) });
  return webhookHookTarget(new URL(url), guard, exchange);
}

const request = { context, signal: new AbortController().signal, timeoutMs: 1_000, caller: {} };

describe('webhook hook target', () => {
  it('POSTs the context as JSON to the address the guard approved and reads the reply', async () => {
    const { exchange, requests } = fakeExchange(200, '{"decision":"deny","reason":"no"}');
    const target = targetFor('https://hooks.example.com/gate?token=t', '93.184.216.34', exchange);
    expect(target.label).toBe('https://hooks.example.com/gate');
    expect(await target.call(request)).toEqual({ decision: 'deny', reason: 'no' });
    expect(requests[0]).toMatchObject({ method: 'POST', address: { address: '93.184.216.34' } });
    expect(JSON.parse(requests[0].body as string)).toEqual(context);
  });

  it('refuses a name that resolves to a private address, before connecting', async () => {
    const { exchange, requests } = fakeExchange(200, '');
    const target = targetFor('https://hooks.example.com/gate', '10.0.0.7', exchange);
    await expect(target.call(request)).rejects.toThrow(
      /webhook hook blocked: .*10\.0\.0\.7, a private address/,
    );
    expect(requests).toHaveLength(0);
  });

  it.each([
    [500, '', 'the webhook answered 500'],
    [200, 'yes', 'the webhook did not answer JSON'],
  ])('a %i answer %j is a failure', async (status, body, message) => {
    const target = targetFor(
      'https://hooks.example.com/gate',
      '93.184.216.34',
      fakeExchange(status, body).exchange,
    );
    await expect(target.call(request)).rejects.toThrow(message);
  });

  it('checks what it can when the profile is created: domain and literal addresses', () => {
    const hooks = (url: string) => [{ event: 'after_tool' as const, url }];
    expect(() => checkWebhooks(['*'], hooks('http://169.254.169.254/latest'))).toThrow(
      /hooks\.0\.url.*link-local/,
    );
    expect(() => checkWebhooks(['hooks.example.com'], hooks('https://evil.example.net/'))).toThrow(
      /not in functions\.http\.allowed_domains/,
    );
    expect(() => checkWebhooks(['*'], hooks('https://hooks.example.com/x'))).not.toThrow();
    expect(() => checkWebhooks([], [{ event: 'after_tool', function: 'audit' }])).not.toThrow();
  });
});
