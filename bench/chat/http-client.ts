// The benchmark's HTTP client: node:http with keep-alive, as load generators (autocannon, wrk)
// are. Node's built-in fetch spends ~0.6 ms of CPU a request here, which would be counted as the
// platform's latency although any caller picks its own client.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });

export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
          } catch (err) {
            reject(err as Error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
