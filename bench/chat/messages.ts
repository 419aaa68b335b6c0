// What one deployed chat turn puts on the bus: every NATS message of N sequential turns, counted by
// subject (ids folded), with its bytes. Build first, then from the repo root:
//   npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/chat/messages.ts [--turns 100]
import { connect } from '@nats-io/transport-node';
import { ADMIN_KEY, startStack } from './stack';

const at = process.argv.indexOf('--turns');
const TURNS = at >= 0 ? Number(process.argv[at + 1]) : 100;
const SCRIPT = {
  rules: [{ match: 'sum', reply: 'The sum is 5.' }],
  fallback: '<call name="add"><p>a: 2</p><p>b: 3</p></call>',
};

/** Folds the parts of a subject that change per run, call or inbox, so that subjects group. */
function shape(subject: string): string {
  return subject
    .replace(/^_INBOX\..*/, '_INBOX.*')
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27,}/gi, '<id>')
    .replace(/\b[0-9A-Za-z_-]{20,}\b/g, '<id>');
}

async function main(): Promise<void> {
  const stack = await startStack('deployed');
  const tap = await connect({ servers: stack.nats.replace(/^nats:\/\//, ''), name: 'tap' });
  try {
    await stack.setScript(SCRIPT);
    const turn = async (i: number) => {
      const res = await fetch(`${stack.gateway}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
        body: JSON.stringify({ message: `What is 2 + 3? (${i})` }),
      });
      if (res.status !== 200) throw new Error(`turn ${i}: ${res.status} ${await res.text()}`);
      await res.json();
    };
    for (let i = 0; i < 20; i += 1) await turn(i);
    const counts = new Map<string, { messages: number; bytes: number }>();
    const sub = tap.subscribe('>', {
      callback: (_err, msg) => {
        const key = shape(msg.subject);
        const entry = counts.get(key) ?? { messages: 0, bytes: 0 };
        entry.messages += 1;
        entry.bytes += msg.data.length + (msg.headers ? msg.headers.toString().length : 0);
        counts.set(key, entry);
      },
    });
    await tap.flush();
    for (let i = 0; i < TURNS; i += 1) await turn(i);
    // batched records and span exports settle
    await new Promise((resolve) => setTimeout(resolve, 500));
    sub.unsubscribe();
    const rows = [...counts.entries()].sort((a, b) => b[1].messages - a[1].messages);
    let total = 0;
    process.stdout.write(`| subject | messages per turn | bytes per turn |\n| --- | ---: | ---: |\n`);
    for (const [subject, { messages, bytes }] of rows) {
      total += messages;
      process.stdout.write(
        `| \`${subject}\` | ${(messages / TURNS).toFixed(2)} | ${Math.round(bytes / TURNS)} |\n`,
      );
    }
    process.stdout.write(`| all | ${(total / TURNS).toFixed(2)} | |\n`);
  } finally {
    await tap.close();
    await stack.close();
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
