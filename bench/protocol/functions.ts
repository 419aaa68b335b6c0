import type { PromptFunction } from '../../libs/protocol/src/index';

type Properties = PromptFunction['parameters']['properties'];

function define(
  name: string,
  description: string,
  properties: Properties,
  required: string[] = [],
): PromptFunction {
  return { name, description, parameters: { type: 'object', properties, required } };
}

/** The toolset of the benchmark's ops-and-sales agent; every scenario's prompt lists all of it. */
export const FUNCTIONS: PromptFunction[] = [
  define('list_users', 'List user accounts.', {
    role: { type: 'string', enum: ['admin', 'editor', 'viewer'], description: 'Only users with this role' },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
  }),
  define('get_user', 'Get one user with profile and preferences.', { id: { type: 'integer' } }, ['id']),
  define(
    'search_orders',
    'Search orders by status and date range.',
    {
      status: { type: 'string', enum: ['paid', 'shipped', 'refunded', 'pending'] },
      since: { type: 'string', description: 'ISO date' },
      limit: { type: 'integer', default: 50 },
    },
    ['since'],
  ),
  define('get_order', 'Get one order with its line items.', { order_id: { type: 'string' } }, ['order_id']),
  define(
    'query_metrics',
    'Time series of host metrics at 5-minute resolution.',
    { host: { type: 'string' }, hours: { type: 'integer', minimum: 1, maximum: 48, default: 8 } },
    ['host'],
  ),
  define(
    'list_files',
    'List files under a directory.',
    { path: { type: 'string' }, older_than_days: { type: 'integer', default: 0 } },
    ['path'],
  ),
  define(
    'clean_logs',
    'Delete the given log files, or those older than N days.',
    {
      path: { type: 'string', description: 'Directory to clean' },
      days: { type: 'integer', default: 7, description: 'Keep the last N days' },
      files: { type: 'array', items: { type: 'string' }, description: 'Exact files to delete' },
      dry_run: { type: 'boolean', default: false },
    },
    ['path'],
  ),
  define(
    'tail_logs',
    'Recent structured log entries of a service.',
    { service: { type: 'string' }, lines: { type: 'integer', default: 100 } },
    ['service'],
  ),
  define('get_service_config', 'Effective configuration of a service.', { service: { type: 'string' } }, [
    'service',
  ]),
  define(
    'restart_service',
    'Restart a service on a host.',
    { service: { type: 'string' }, host: { type: 'string' }, force: { type: 'boolean', default: false } },
    ['service', 'host'],
  ),
  define('list_repos', 'Most starred repositories for a topic.', { topic: { type: 'string' } }, ['topic']),
  define('export_inventory', 'Full stock list of all warehouses.', {}),
  define('list_alerts', 'Open monitoring alerts.', {
    severity: { type: 'string', enum: ['critical', 'warning', 'info'] },
  }),
  // As the scheduler defines it (task-function.params.ts), paging included.
  define('delay_list', 'List one-off tasks, optionally only those in one status.', {
    status: {
      type: 'string',
      enum: ['pending', 'completed', 'failed', 'cancelled', 'missed'],
      description: 'Only tasks in this status',
    },
    offset: { type: 'integer', minimum: 0, default: 0, description: 'Tasks to skip, for the next page' },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'Most tasks to return' },
  }),
  define(
    'render_report',
    'Render a Markdown sales report for a period.',
    { period: { type: 'string', description: 'e.g. 2026-10' } },
    ['period'],
  ),
];
