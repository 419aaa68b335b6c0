import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardProxy {
  url: string;
  /** `METHOD absolute-url` of every request it forwarded, in order. */
  seen: string[];
  close(): Promise<void>;
}

/** A plain HTTP forward proxy (absolute-URI requests, http targets), as an operator's egress proxy. */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
