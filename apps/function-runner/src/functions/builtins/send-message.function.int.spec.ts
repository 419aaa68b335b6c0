import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FunctionContext, parseParams } from '@app/functions';
import { Logger } from '@app/observability';
import { SendMessageParams, sendMessageFunction } from './send-message.function';

function ctx(lines: string[] = []): FunctionContext {
  const logger = new Logger({ service: 'test', level: 'info', format: 'json', write: (l) => lines.push(l) });
  return {
    signal: new AbortController().signal,
    deadline: Date.now() + 5_000,
    logger,
    caller: { kind: 'agent', run_id: 'r1' },
  };
}

const send = (webhookUrl: string | undefined, params: Record<string, unknown>, lines: string[] = []) =>
  sendMessageFunction({ webhookUrl }).execute(parseParams(SendMessageParams, params), ctx(lines));

describe('send_message', () => {
  let server: Server;
  let url = '';
  const received: unknown[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(req.url === '/fail' ? 500 : 204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('writes to the console channel by default', async () => {
    const lines: string[] = [];
    const result = await send(undefined, { to: 'ops', message: 'disk almost full' }, lines);
    expect(result).toMatchObject({
      message: 'message sent to ops via console',
      data: { channel: 'console', to: 'ops' },
    });
    expect(JSON.parse(lines[0])).toMatchObject({
      msg: 'message for ops: disk almost full',
      channel: 'console',
    });
  });

  it('says clearly that another channel is not configured', async () => {
    await expect(send(undefined, { to: 'a@b.c', message: 'hi', channel: 'email' })).rejects.toThrow(
      "channel 'email' is not configured: set functions.channels.webhook_url (MESSAGE_WEBHOOK_URL) to deliver it",
    );
  });

  it('hands other channels to the configured webhook', async () => {
    const result = await send(`${url}/hook`, { to: '+4712345678', message: 'hi', channel: 'sms' });
    expect(result.message).toBe('message sent to +4712345678 via sms');
    expect(received.at(-1)).toMatchObject({
      channel: 'sms',
      to: '+4712345678',
      message: 'hi',
      caller: { run_id: 'r1' },
    });
    await expect(send(`${url}/fail`, { to: 'x', message: 'hi', channel: 'wechat' })).rejects.toThrow(
      'the wechat webhook answered 500',
    );
  });

  it('refuses an unknown channel by its schema', () => {
    expect(() => parseParams(SendMessageParams, { to: 'x', message: 'y', channel: 'pigeon' })).toThrow(
      /channel: must be one of/,
    );
  });
});
