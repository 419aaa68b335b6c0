import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { HttpIntake } from './http-intake';

interface Served {
  server: Server;
  intake: HttpIntake;
  port: number;
  /** Ends the oldest open response of `/slow` (headers sent) or `/wait` (nothing sent yet). */
  release(): void;
}

async function serve(): Promise<Served> {
  const intake = new HttpIntake();
  const open: Array<() => void> = [];
  const server = createServer((req, res) =>
    intake.handle(req, res, () => {
      if (req.url === '/wait') return void open.push(() => res.end('waited'));
      if (req.url !== '/slow') return void res.end('quick');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('started ');
      open.push(() => res.end('finished'));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, intake, port, release: () => open.shift()?.() };
}

function get(port: number, path: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function getWithHeaders(port: number, path: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      request({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    },
  );
}

const opened = (served: Served, n: number) => expectEventually(() => expect(served.intake.inFlight).toBe(n));

describe('HttpIntake (a real HTTP server)', () => {
  let served: Served | undefined;
  afterEach(() => served?.server.close());

  it('keeps listening while an open request finishes: new ones get 503 with Retry-After, then it closes', async () => {
    served = await serve();
    const slow = get(served.port, '/slow');
    await opened(served, 1);
    const drained = served.intake.drain(served.server, 10_000);
    const refused = await getWithHeaders(served.port, '/quick');
    expect(refused).toMatchObject({ status: 503, headers: { 'retry-after': '5', connection: 'close' } });
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'unavailable' } });
    const health = await getWithHeaders(served.port, '/health');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'draining', error: { code: 'unavailable' } });
    served.release();
    expect(await slow).toEqual({ status: 200, body: 'started finished' });
    await drained;
    expect(served.intake.inFlight).toBe(0);
    expect(served.server.listening).toBe(false);
    await expect(get(served.port, '/quick')).rejects.toThrow();
  });

  it('with a drain delay, answers 503 for that long with nothing in flight, then closes', async () => {
    served = await serve();
    let done = false;
    const drained = served.intake.drain(served.server, 10_000, 1_000).then(() => (done = true));
    const health = await getWithHeaders(served.port, '/api/v1/health');
    expect(done).toBe(false);
    expect(health).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    expect(JSON.parse(health.body)).toMatchObject({ status: 'draining' });
    await drained;
    expect(served.server.listening).toBe(false);
  });

  it('answers a request arriving on an open connection with 503, a JSON error and Connection: close', async () => {
    served = await serve();
    const socket = connect(served.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /slow HTTP/1.1\r\nHost: test\r\n\r\n');
    await opened(served, 1);
    const other = get(served.port, '/slow'); // holds the drain open
    await opened(served, 2);
    const drained = served.intake.drain(served.server, 10_000);
    socket.write('GET /quick HTTP/1.1\r\nHost: test\r\n\r\n'); // pipelined behind /slow
    served.release();
    await closed;
    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*started [\s\S]*finished/);
    expect(second).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toContain(
      '"error":{"code":"unavailable","message":"the service is shutting down; retry on another instance"}',
    );
    expect(second).toMatch(/\r\nretry-after: 5\r\n/i);
    served.release();
    await other;
    await drained;
  });

  it('tells the clients of open requests not to reuse their connection', async () => {
    served = await serve();
    const socket = connect(served.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write('GET /wait HTTP/1.1\r\nHost: test\r\n\r\n');
    await opened(served, 1);
    const drained = served.intake.drain(served.server, 10_000);
    served.release();
    await drained;
    await new Promise((resolve) => socket.on('close', resolve));
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('stops waiting at the timeout and cuts what is still open', async () => {
    served = await serve();
    const slow = get(served.port, '/slow').catch((err: NodeJS.ErrnoException) => err.code);
    await opened(served, 1);
    await served.intake.drain(served.server, 50);
    expect(await slow).toBe('ECONNRESET');
  });
});
