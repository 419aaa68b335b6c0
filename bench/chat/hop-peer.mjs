// The far end of one transport for bench/chat/hops.ts, in its own process as a deployed service is:
//   node bench/chat/hop-peer.mjs http            an HTTP server answering every request with a JSON body
//   node bench/chat/hop-peer.mjs nats <url>      a NATS responder on `hop.echo` (queue group `hop`)
//   (forked, no argument)                        a child echoing every IPC message (JSON serialization)
import { createServer } from 'node:http';

const [mode, url] = process.argv.slice(2);
const ANSWER = JSON.stringify({ run_id: 'run_0', reply: 'The sum is 5.', pad: 'x'.repeat(600) });

if (mode === 'http') {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) })
        .end(ANSWER),
    );
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
} else if (mode === 'nats') {
  const { connect } = await import('@nats-io/transport-node');
  const nc = await connect({ servers: url.replace(/^nats:\/\//, '') });
  nc.subscribe('hop.echo', { queue: 'hop', callback: (_err, msg) => msg.respond(msg.data) });
  await nc.flush();
  console.log('listening');
} else {
  process.on('message', (message) => process.send(message));
}
