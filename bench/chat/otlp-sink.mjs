// The deployed profile's OTLP/HTTP receiver, in its own process so that its CPU is not the
// platform's: it reads what it is sent and answers. With SPANS_OUT=<file> it also appends each span
// as a line `service<TAB>name<TAB>duration in µs<TAB>trace id<TAB>start ns<TAB>end ns` (summarised by bench/chat/spans.mjs): where a
// turn's latency goes, hop by hop.
//   node bench/chat/otlp-sink.mjs <port>
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const out = process.env.SPANS_OUT;

function spanLines(body) {
  const lines = [];
  for (const resource of JSON.parse(body).resourceSpans ?? []) {
    const service = resource.resource.attributes.find((a) => a.key === 'service.name')?.value?.stringValue;
    for (const scope of resource.scopeSpans)
      for (const span of scope.spans) {
        const us = (BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1000n;
        const at = `${span.traceId}\t${span.startTimeUnixNano}\t${span.endTimeUnixNano}`;
        lines.push(`${service}\t${span.name}\t${us}\t${at}\n`);
      }
  }
  return lines.join('');
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => out && chunks.push(chunk));
  req.on('end', () => {
    if (out) appendFileSync(out, spanLines(Buffer.concat(chunks).toString()));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
}).listen(port, '127.0.0.1', () => console.log('listening'));
