// Where a V8 CPU profile (`node --cpu-prof`) spends its time, grouped by package and by function.
//   node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--skip-ms 5000] [--top 30]
// Self time by package and function, then total time (self + callees) of the project's own functions;
// the first --skip-ms of the profile (startup) is left out.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
if (!file) throw new Error('usage: profile-summary.mjs <file.cpuprofile> [--skip-ms N] [--top N]');
const skipMs = option('skip-ms', 5_000);
const top = option('top', 30);

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
let at = 0;
let counted = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (at / 1000 < skipMs) return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  counted += delta;
});

const byGroup = new Map();
const byFunction = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = nodes.get(id);
  if (callFrame.functionName === '(idle)') continue;
  const group = groupOf(callFrame);
  byGroup.set(group, (byGroup.get(group) ?? 0) + us);
  const fn = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
}
const busy = [...byGroup.values()].reduce((a, b) => a + b, 0);
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
    );
  }
};
console.log(
  `${file}: ${(counted / 1e6).toFixed(1)} s profiled after ${skipMs} ms, ${(busy / 1e6).toFixed(1)} s busy`,
);
print('By package', byGroup);
print('By function (self time)', byFunction);
print("Project functions, total time (self + callees)", totalTimes());

/** Each sample's time, added once to every project function on its stack. */
function totalTimes() {
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map();
  for (const [id, us] of selfUs) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = nodes.get(at);
      if (!/\/dist\/(apps|libs)\//.test(callFrame.url)) continue;
      const fn = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`;
      if (seen.has(fn)) continue;
      seen.add(fn);
      totals.set(fn, (totals.get(fn) ?? 0) + us);
    }
  }
  return totals;
}

function groupOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:internal/deps/')) return `node:${url.split('/')[3]} (bundled)`;
  if (url.startsWith('node:internal/')) return `node:internal/${url.split('/')[2]}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const app = /\/dist\/((?:apps|libs)\/[^/]+)/.exec(url);
  return app ? app[1] : url;
}

function shortUrl(url) {
  return url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '');
}
