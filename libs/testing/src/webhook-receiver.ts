import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export type WebhookAnswer = { status?: number; body?: unknown; delayMs?: number };

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every request, in arrival order, its JSON body parsed. */
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A small HTTP server that keeps what is POSTed to it (JSON) and answers with what `answer` says
 * for each request (200 and no body by default).
 */
export async function startWebhookReceiver(
  answer: (request: ReceivedWebhook) => WebhookAnswer = () => ({}),
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request = {
        path: req.url ?? '/',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      received.push(request);
      const { status = 200, body, delayMs = 0 } = answer(request);
      setTimeout(() => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
