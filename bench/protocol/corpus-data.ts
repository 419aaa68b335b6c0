/**
 * Deterministic, realistic tool outputs for the protocol benchmark: the same seed always yields
 * the same rows, so token counts are comparable across runs and machines.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const between = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const money = (random: Random, max: number) => Math.round(random() * max * 100) / 100;
const isoTime = (base: number, offsetMinutes: number) =>
  new Date(base + offsetMinutes * 60_000).toISOString();

const FIRST = [
  'Ana',
  'Bo',
  'Chen',
  'Dara',
  'Eli',
  'Fatima',
  'Goran',
  'Hana',
  'Ivo',
  'Jun',
  'Kai',
  'Lena',
  'Mateo',
  'Nia',
];
const LAST = [
  'Silva',
  'Novak',
  'Wang',
  'Okafor',
  'Berg',
  'Haddad',
  'Ivanov',
  'Sato',
  'Rossi',
  'Kim',
  'Meyer',
  'Diaz',
];
const BASE_TIME = Date.UTC(2026, 10, 1, 8, 0, 0);

export function users(count: number, seed = 1) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const first = pick(random, FIRST);
    const last = pick(random, LAST);
    return {
      id: 1000 + index,
      name: `${first} ${last}`,
      email: `${first}.${last}${index}@example.com`.toLowerCase(),
      role: pick(random, ['admin', 'editor', 'viewer', 'viewer']),
      active: random() > 0.2,
      created_at: isoTime(BASE_TIME, -between(random, 1000, 400_000)).slice(0, 10),
    };
  });
}

export function orders(count: number, seed = 2) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    order_id: `ORD-${String(58_000 + index * 7).padStart(6, '0')}`,
    customer_id: between(random, 1000, 1400),
    total: money(random, 900),
    currency: pick(random, ['EUR', 'EUR', 'USD', 'GBP']),
    status: pick(random, ['paid', 'paid', 'shipped', 'refunded', 'pending']),
    placed_at: isoTime(BASE_TIME, -between(random, 10, 40_000)),
  }));
}

export function metrics(count: number, seed = 3) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    ts: isoTime(BASE_TIME, index * 5),
    cpu_pct: Math.round(20 + random() * 70),
    mem_mb: between(random, 900, 3800),
    rps: between(random, 40, 900),
    p95_ms: between(random, 35, 700),
  }));
}

const TOPICS = [
  'HTTP client',
  'job queue',
  'ORM',
  'test runner',
  'CLI framework',
  'date library',
  'state manager',
];
export function repositories(count: number, seed = 4) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const topic = pick(random, TOPICS);
    return {
      full_name: `${pick(random, LAST).toLowerCase()}/${topic.replace(/ /g, '-').toLowerCase()}-${index}`,
      description: `A fast, ${pick(random, ['minimal', 'typed', 'batteries-included'])} ${topic} for Node.js`,
      stars: between(random, 50, 90_000),
      forks: between(random, 5, 9_000),
      language: pick(random, ['TypeScript', 'JavaScript', 'Go', 'Rust']),
      updated: isoTime(BASE_TIME, -between(random, 60, 90_000)).slice(0, 10),
    };
  });
}

export function files(count: number, seed = 5) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    path: `/var/log/${pick(random, ['app', 'nginx', 'worker', 'cron'])}/${pick(random, ['access', 'error', 'debug'])}.${index}.log`,
    size_kb: between(random, 1, 250_000),
    modified: isoTime(BASE_TIME, -between(random, 60, 60 * 24 * 90)).slice(0, 16),
    owner: pick(random, ['root', 'www-data', 'app']),
  }));
}

export function inventory(count: number, seed = 6) {
  const random = seededRandom(seed);
  const kinds = ['Bolt', 'Nut', 'Washer', 'Bracket', 'Hinge', 'Cable', 'Clamp', 'Valve'];
  return Array.from({ length: count }, (_, index) => ({
    sku: `SKU-${String(index + 1).padStart(5, '0')}`,
    name: `${pick(random, kinds)} ${pick(random, ['M4', 'M6', 'M8', 'S', 'L', 'XL'])}`,
    qty: between(random, 0, 5000),
    warehouse: pick(random, ['BER-1', 'BER-2', 'HAM-1', 'MUC-1']),
    unit_price: money(random, 40),
  }));
}

export function alerts(count: number, seed = 7) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    id: `al-${index + 1}`,
    severity: pick(random, ['critical', 'warning', 'warning', 'info']),
    labels: {
      service: pick(random, ['api', 'db', 'queue']),
      region: pick(random, ['eu-west-1', 'us-east-1']),
    },
    started: isoTime(BASE_TIME, -between(random, 1, 600)),
  }));
}

/**
 * The scheduler's `delay_list` rows (task-functions.ts): six fields, `executed_at` and `error`
 * null in every row (pending and cancelled tasks), `run_at` an ISO timestamp.
 */
export function delays(count: number, seed = 9) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    name: `${pick(random, ['remind', 'report', 'follow_up', 'renew'])}_${index + 1}`,
    run_at: isoTime(BASE_TIME, between(random, 30, 40_000)),
    target: pick(random, ['send_message', 'send_message', 'agent', 'http_request']),
    status: pick(random, ['pending', 'pending', 'pending', 'cancelled']),
    executed_at: null,
    error: null,
  }));
}

/** Semi-uniform: every entry has the common fields, some carry extra context or an error object. */
export function logs(count: number, seed = 8) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const level = pick(random, ['info', 'info', 'info', 'warn', 'error']);
    const entry: Record<string, unknown> = {
      ts: isoTime(BASE_TIME, index),
      level,
      service: pick(random, ['api', 'worker', 'scheduler']),
      msg:
        level === 'error'
          ? 'upstream request failed'
          : pick(random, ['request served', 'job done', 'cache miss']),
    };
    if (level !== 'info') entry.request_id = `req-${between(random, 10_000, 99_999)}`;
    if (level === 'error')
      entry.error = { code: pick(random, ['ETIMEDOUT', 'ECONNRESET']), retry: random() > 0.5 };
    return entry;
  });
}
