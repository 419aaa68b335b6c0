import type { ParsedCall, ResultContent } from '../../libs/protocol/src/index';
import { alerts, delays, files, inventory, logs, metrics, orders, repositories, users } from './corpus-data';

export type StepResult = { ok: true; content: ResultContent } | { ok: false; error: string };

/** One model turn that calls functions, and what those calls returned (in call order). */
export interface Step {
  calls: Pick<ParsedCall, 'name' | 'params'>[];
  results: StepResult[];
}

export interface Scenario {
  name: string;
  kind: 'result' | 'conversation';
  user: string;
  steps: Step[];
}

const ok = (content: ResultContent): StepResult => ({ ok: true, content });
const call = (name: string, params: Record<string, unknown> = {}) => ({ name, params });

function single(name: string, user: string, invoked: Step['calls'][number], result: StepResult): Scenario {
  return { name, kind: 'result', user, steps: [{ calls: [invoked], results: [result] }] };
}

const serviceConfig = {
  service: 'api',
  version: '4.12.3',
  server: {
    host: '0.0.0.0',
    port: 8080,
    tls: { enabled: true, cert: '/etc/tls/api.pem', min_version: '1.2' },
  },
  database: {
    url: 'postgres://api@db-1:5432/api',
    pool: { min: 2, max: 20, idle_ms: 30000 },
    replicas: ['db-2', 'db-3'],
  },
  cache: { driver: 'redis', ttl_s: 300, namespaces: { sessions: 3600, pages: 60 } },
  features: { new_checkout: true, beta_search: false, rate_limit: { rps: 200, burst: 400 } },
  upstreams: [
    { name: 'payments', url: 'https://pay.internal', timeout_ms: 2500 },
    { name: 'search', url: 'https://search.internal', timeout_ms: 800, retries: 2 },
  ],
};

const userProfile = {
  id: 1042,
  name: 'Hana Sato',
  email: 'hana.sato42@example.com',
  role: 'editor',
  active: true,
  teams: ['growth', 'checkout'],
  preferences: { locale: 'ja-JP', timezone: 'Asia/Tokyo', digest: 'weekly' },
  last_login: '2026-11-20T23:14:09Z',
};

const orderDetail = {
  order_id: 'ORD-058042',
  customer: { id: 1187, name: 'Mateo Rossi', tier: 'gold' },
  status: 'shipped',
  shipping: { carrier: 'DHL', tracking: 'JD014600003RO', eta: '2026-11-24' },
  items: [
    { sku: 'SKU-00017', name: 'Hinge L', qty: 4, unit_price: 6.4 },
    { sku: 'SKU-00203', name: 'Valve M6', qty: 1, unit_price: 31.9 },
    { sku: 'SKU-00311', name: 'Clamp S', qty: 12, unit_price: 1.15 },
  ],
  totals: { net: 70.9, vat: 13.47, gross: 84.37, currency: 'EUR' },
};

const salesReport = `# Sales report 2026-10
Revenue grew **12.4%** month over month to €1.28M.

| Region | Revenue | Orders | Δ |
| --- | ---: | ---: | ---: |
| DACH | €612k | 4,210 | +9% |
| Nordics | €301k | 2,004 | +21% |
| UK | €367k | 2,533 | +11% |

- Refund rate fell to 1.9% (from 2.6%).
- Top product: *Valve M6*, 8,911 units.`;

const sevenDayFiles = files(250, 11)
  .filter((file) => file.path.includes('debug'))
  .slice(0, 30);

export const RESULT_SCENARIOS: Scenario[] = [
  single('users, 10 rows', 'Who are our users?', call('list_users', { limit: 10 }), ok({ data: users(10) })),
  single(
    'delay_list, 50 rows',
    'What is scheduled?',
    call('delay_list', { limit: 50 }),
    ok({ message: '50 of 64 delay task(s), from offset 0', data: delays(50) }),
  ),
  single(
    'orders, 50 rows',
    'Paid orders since October?',
    call('search_orders', { since: '2026-10-01' }),
    ok({ data: orders(50) }),
  ),
  single(
    'metrics, 100 rows',
    'How did web-1 do today?',
    call('query_metrics', { host: 'web-1' }),
    ok({ data: metrics(100) }),
  ),
  single(
    'repositories, 100 rows',
    'Popular Node.js libraries?',
    call('list_repos', { topic: 'node' }),
    ok({ data: repositories(100) }),
  ),
  single(
    'files, 250 rows',
    'What is in /var/log?',
    call('list_files', { path: '/var/log' }),
    ok({ data: files(250) }),
  ),
  single(
    'inventory, 500 rows',
    'Export the stock list.',
    call('export_inventory'),
    ok({ data: inventory(500) }),
  ),
  single('alerts with nested labels, 30 rows', 'Open alerts?', call('list_alerts'), ok({ data: alerts(30) })),
  single(
    'semi-uniform logs, 60 entries',
    'Any API errors?',
    call('tail_logs', { service: 'api', lines: 60 }),
    ok({ data: logs(60) }),
  ),
  single(
    'nested configuration',
    'How is the API configured?',
    call('get_service_config', { service: 'api' }),
    ok({ data: serviceConfig }),
  ),
  single(
    'single object',
    'Tell me about user 1042.',
    call('get_user', { id: 1042 }),
    ok({ data: userProfile }),
  ),
  single(
    'order with line items',
    'Where is ORD-058042?',
    call('get_order', { order_id: 'ORD-058042' }),
    ok({ data: orderDetail }),
  ),
  single(
    'Markdown report',
    'October sales report please.',
    call('render_report', { period: '2026-10' }),
    ok({ message: 'Report rendered', markdown: salesReport }),
  ),
  single(
    'clean_logs example result',
    'Clean the app logs.',
    call('clean_logs', { path: '/var/log/app', days: 7 }),
    ok({
      message: 'Done',
      data: {
        files: [
          { name: 'app.log', size: 1024, deleted: true },
          { name: 'error.log', size: 512, deleted: true },
        ],
      },
      markdown: '## Result\n- Files deleted: 2\n- Space freed: 1.5 KB',
    }),
  ),
  single(
    'error result',
    'Restart the API on web-1.',
    call('restart_service', { service: 'api', host: 'web-1' }),
    {
      ok: false,
      error: 'permission denied: systemctl restart api requires sudo on web-1',
    },
  ),
];

export const CONVERSATIONS: Scenario[] = [
  {
    name: 'ops: free disk space (2 steps, parallel calls)',
    kind: 'conversation',
    user: 'web-1 is running out of disk. Find old debug logs and delete them, then tell me what you freed.',
    steps: [
      {
        calls: [
          call('query_metrics', { host: 'web-1', hours: 2 }),
          call('list_files', { path: '/var/log', older_than_days: 7 }),
        ],
        results: [ok({ data: metrics(24, 12) }), ok({ data: files(250, 11) })],
      },
      {
        calls: [call('clean_logs', { path: '/var/log', files: sevenDayFiles.map((file) => file.path) })],
        results: [ok({ message: `Deleted ${sevenDayFiles.length} files`, data: { deleted: sevenDayFiles } })],
      },
    ],
  },
  {
    name: 'sales: monthly review (3 steps)',
    kind: 'conversation',
    user: 'Review October: biggest paid orders, who placed the largest one, and give me the report.',
    steps: [
      {
        calls: [call('search_orders', { status: 'paid', since: '2026-10-01', limit: 100 })],
        results: [ok({ data: orders(100, 21) })],
      },
      {
        calls: [call('get_user', { id: 1187 }), call('get_order', { order_id: 'ORD-058042' })],
        results: [ok({ data: userProfile }), ok({ data: orderDetail })],
      },
      {
        calls: [call('render_report', { period: '2026-10' })],
        results: [ok({ message: 'Report rendered', markdown: salesReport })],
      },
    ],
  },
  {
    name: 'incident: triage and restart (4 steps, one error)',
    kind: 'conversation',
    user: 'The API is throwing errors. Find out why and fix it.',
    steps: [
      {
        calls: [
          call('tail_logs', { service: 'api', lines: 80 }),
          call('list_alerts', { severity: 'critical' }),
        ],
        results: [ok({ data: logs(80, 31) }), ok({ data: alerts(12, 32) })],
      },
      { calls: [call('get_service_config', { service: 'api' })], results: [ok({ data: serviceConfig })] },
      {
        calls: [call('restart_service', { service: 'api', host: 'web-1' })],
        results: [{ ok: false, error: 'service is draining connections; retry with force=true' }],
      },
      {
        calls: [call('restart_service', { service: 'api', host: 'web-1', force: true })],
        results: [ok({ message: 'api restarted on web-1 in 4.2 s' })],
      },
    ],
  },
];
