/**
 * Every configuration key the platform knows: its path in the YAML file, the environment variable
 * that overrides it, how to read it, and its default. Apps pick the keys they need. The typed
 * `PlatformConfig` is derived from this table, so a key is added here only.
 */
export type KeyType = 'string' | 'int' | 'number' | 'bool' | 'duration' | 'url' | 'list';

export interface KeySpec {
  path: string;
  env: string;
  type: KeyType;
  default?: unknown;
  /** For `string`: allowed values (the typed config's union). For `url`: allowed schemes (without `:`). */
  oneOf?: readonly string[];
  min?: number;
  max?: number;
  secret?: boolean;
  /** For `int` and `number`: what one unit is (`MB`, `bytes`); shown in errors. */
  unit?: string;
  /** A valid value shown with an error, when the default is not a good one. */
  example?: string;
  /** For `url`: several URLs separated by commas are allowed (a cluster's nodes). */
  several?: boolean;
}

/** Keeps each key's literal path, type, `oneOf` and default: `PlatformConfig` is read off them. */
const key = <
  const P extends string,
  const T extends KeyType,
  const X extends Partial<KeySpec> = Record<never, never>,
>(
  path: P,
  env: string,
  type: T,
  extra?: X,
) => ({ path, env, type, ...extra }) as { path: P; env: string; type: T } & X;

export const CONFIG_KEYS = [
  key('llm.provider', 'LLM_PROVIDER', 'string', {
    default: 'openai',
    oneOf: ['openai', 'openai-compatible', 'azure', 'ollama', 'anthropic', 'custom'],
  }),
  key('llm.base_url', 'LLM_BASE_URL', 'url', {
    oneOf: ['http', 'https'],
    example: 'http://localhost:11434/v1',
  }),
  key('llm.api_key', 'LLM_API_KEY', 'string', { secret: true }),
  key('llm.model', 'LLM_MODEL', 'string', { default: 'gpt-4o-mini' }),
  key('llm.timeout', 'LLM_TIMEOUT', 'duration', { default: 60_000, min: 1 }),
  key('llm.max_retries', 'LLM_MAX_RETRIES', 'int', { default: 3, min: 0, max: 10 }),
  // Model calls through an HTTP proxy (CONNECT for https); it may carry credentials, so it is a secret.
  key('llm.proxy', 'LLM_PROXY', 'url', {
    oneOf: ['http', 'https'],
    secret: true,
    example: 'http://proxy.internal:3128',
  }),
  key('llm.no_proxy', 'LLM_NO_PROXY', 'list', { default: [] }),
  // The provider's prompt cache: `auto` places Anthropic's cache breakpoints and sends OpenAI (and
  // Azure) a `prompt_cache_key` per session; `on` sends the key to any OpenAI-compatible server too;
  // `off` does neither.
  key('llm.prompt_cache', 'LLM_PROMPT_CACHE', 'string', { default: 'auto', oneOf: ['auto', 'on', 'off'] }),
  // The overall deadline of one agent run; the gateway waits this long (plus a grace) for a reply.
  key('executor.run_timeout', 'AGENT_RUN_TIMEOUT', 'duration', { default: 300_000, min: 100 }),
  // How long the executor trusts its copy of the function catalogue before asking again.
  key('executor.catalog_ttl', 'AGENT_CATALOG_TTL', 'duration', { default: 30_000, min: 0 }),
  // How often an executor renews the leases of the runs it holds (and looks for lapsed ones).
  key('executor.lease_heartbeat', 'AGENT_LEASE_HEARTBEAT', 'duration', { default: 2_000, min: 50 }),
  // A run's lease runs this long past its last renewal; then another executor takes the run over.
  key('executor.lease_lapse', 'AGENT_LEASE_LAPSE', 'duration', { default: 6_000, min: 150 }),
  // How long a call held for approval waits (unless its agent says otherwise); 0: until its run's
  // record is deleted. `approval_default` is what the timeout decides.
  key('executor.approval_timeout', 'AGENT_APPROVAL_TIMEOUT', 'duration', { default: 0, min: 0 }),
  key('executor.approval_default', 'AGENT_APPROVAL_DEFAULT', 'string', {
    default: 'reject',
    oneOf: ['reject', 'approve'],
  }),
  // Most prompt tokens the function definitions of a text-protocol run may take; over it they are
  // listed one line each and `function_describe` gives a full signature on demand.
  key('executor.function_definition_budget', 'AGENT_FUNCTION_DEFINITION_BUDGET', 'int', {
    default: 3_000,
    min: 0,
  }),
  // How deep agents called as functions may nest (an agent called by an agent called by …).
  key('executor.agent_call_depth', 'AGENT_CALL_MAX_DEPTH', 'int', { default: 3, min: 1, max: 16 }),
  // One server, or a cluster's nodes separated by commas: the client fails over between them.
  key('nats.url', 'NATS_URL', 'url', {
    default: 'nats://127.0.0.1:4222',
    oneOf: ['nats', 'tls', 'ws', 'wss'],
    several: true,
  }),
  // How many servers keep a copy of each JetStream stream and key-value bucket the platform creates
  // (the stream RUN_EVENTS, the bucket fn_outcomes): 3 on a cluster of three, so one node's loss
  // loses nothing. At most the cluster's size; an existing stream is changed to it when opened.
  key('nats.jetstream_replicas', 'NATS_JETSTREAM_REPLICAS', 'int', { default: 1, min: 1, max: 5 }),
  key('nats.user', 'NATS_USER', 'string'),
  key('nats.password', 'NATS_PASSWORD', 'string', { secret: true }),
  key('nats.creds_file', 'NATS_CREDS_FILE', 'string'),
  key('nats.tls_ca_file', 'NATS_TLS_CA_FILE', 'string'),
  key('nats.tls_cert_file', 'NATS_TLS_CERT_FILE', 'string'),
  key('nats.tls_key_file', 'NATS_TLS_KEY_FILE', 'string'),
  // How long a run's events stay readable for a stream resumed with `Last-Event-ID` (then only its reply).
  key('events.retention', 'RUN_EVENTS_RETENTION', 'duration', { default: 3_600_000, min: 1_000 }),
  // Most bytes the run events' stream keeps: past it, the oldest events go first.
  key('events.max_bytes', 'RUN_EVENTS_MAX_BYTES', 'int', {
    default: 1_073_741_824,
    min: 1_048_576,
    unit: 'bytes',
  }),
  key('redis.url', 'REDIS_URL', 'url', {
    default: 'redis://127.0.0.1:6379',
    oneOf: ['redis', 'rediss'],
    secret: true,
  }),
  key('database.url', 'DATABASE_URL', 'url', {
    default: 'file:./data/agentchassis.db',
    oneOf: ['file', 'postgresql', 'postgres'],
    secret: true,
  }),
  // Only `npm run db:migrate -- create <name>` uses it: a scratch PostgreSQL to diff migrations against.
  key('database.dev_postgres_url', 'DEV_POSTGRES_URL', 'url', {
    default: 'postgresql://postgres@127.0.0.1:5432/agentchassis_dev',
    oneOf: ['postgresql', 'postgres'],
    secret: true,
  }),
  key('gateway.port', 'PORT', 'int', { default: 3000, min: 0, max: 65535 }),
  key('gateway.host', 'HOST', 'string', { default: '0.0.0.0' }),
  // The gateway's URL as its clients reach it (agent cards, MCP's protected-resource metadata); unset: the request's own.
  key('gateway.public_url', 'PUBLIC_URL', 'url', {
    oneOf: ['http', 'https'],
    example: 'https://agents.example.com',
  }),
  // Browser origins allowed to call /mcp besides the gateway's own (DNS-rebinding protection): `*` allows any.
  key('gateway.allowed_origins', 'ALLOWED_ORIGINS', 'list', {
    default: [],
    example: 'https://app.example.com',
  }),
  // Probe/metrics server of the non-HTTP services; unset = off, 0 = any free port.
  key('metrics.port', 'METRICS_PORT', 'int', { min: 0, max: 65535, example: '9464' }),
  // Tracing is on when an OTLP endpoint is set (the exporter reads the standard OTEL_* variables).
  key('tracing.otlp_endpoint', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'url', {
    oneOf: ['http', 'https'],
    example: 'http://localhost:4318',
  }),
  key('tracing.otlp_traces_endpoint', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'url', {
    oneOf: ['http', 'https'],
    example: 'http://localhost:4318/v1/traces',
  }),
  key('tracing.trace_url_template', 'TRACE_URL_TEMPLATE', 'string', {
    example: 'http://jaeger:16686/trace/{trace_id}',
  }),
  key('security.admin_key', 'AC_ADMIN_KEY', 'string', { secret: true }),
  key('security.auth', 'AUTH_ENABLED', 'bool', { default: true }),
  key('security.metrics_public', 'METRICS_PUBLIC', 'bool', { default: true }),
  // The API document and its UI (`/api/openapi.json`, `/api/docs`) answer without a key.
  key('security.docs_public', 'DOCS_PUBLIC', 'bool', { default: true }),
  key('security.rate_limit_per_minute', 'RATE_LIMIT_PER_MINUTE', 'int', { default: 600, min: 1 }),
  key('security.max_concurrent_runs', 'MAX_CONCURRENT_RUNS_PER_KEY', 'int', { default: 20, min: 1 }),
  key('security.daily_token_quota', 'DAILY_TOKEN_QUOTA_PER_KEY', 'int', { default: 2_000_000, min: 1 }),
  // Unset: no daily spending limit; a key's own `daily_cost_budget_usd` takes precedence.
  key('security.daily_cost_budget_usd', 'DAILY_COST_BUDGET_USD_PER_KEY', 'number', {
    min: 0,
    unit: 'USD',
    example: '25',
  }),
  // On SIGTERM, how long in-flight requests may take to finish before the bus closes.
  key('shutdown.timeout', 'SHUTDOWN_TIMEOUT', 'duration', { default: 30_000, min: 0 }),
  // How long a stopping gateway keeps answering 503 (/health "draining") before it closes its port,
  // even with nothing in flight: the time a load balancer needs to take it out.
  key('shutdown.drain_delay', 'SHUTDOWN_DRAIN_DELAY', 'duration', { default: 0, min: 0 }),
  key('log.level', 'LOG_LEVEL', 'string', { default: 'info', oneOf: ['debug', 'info', 'warn', 'error'] }),
  key('log.format', 'LOG_FORMAT', 'string', { default: 'text', oneOf: ['json', 'text'] }),
  key('functions.dir', 'FUNCTIONS_DIR', 'string', { default: './functions' }),
  key('functions.default_timeout', 'FUNCTIONS_DEFAULT_TIMEOUT', 'duration', { default: 30_000, min: 1 }),
  key('functions.concurrency', 'FUNCTIONS_CONCURRENCY', 'int', { default: 64, min: 1, max: 10_000 }),
  key('functions.sandbox_memory_mb', 'FUNCTIONS_SANDBOX_MEMORY_MB', 'int', {
    default: 128,
    min: 16,
    max: 8192,
    unit: 'MB',
  }),
  // How long a keyed call's outcome is kept: a repeat with its key within that time is answered from it.
  key('functions.outcome_ttl', 'FUNCTIONS_OUTCOME_TTL', 'duration', {
    default: 86_400_000,
    min: 1_000,
  }),
  // Warm sandbox processes per runner; each runs one call at a time.
  key('functions.sandbox_workers', 'FUNCTIONS_SANDBOX_WORKERS', 'int', { default: 4, min: 1, max: 256 }),
  key('functions.http.allowed_domains', 'HTTP_ALLOWED_DOMAINS', 'list', { default: [] }),
  key('functions.http.allowed_methods', 'HTTP_ALLOWED_METHODS', 'list', { default: ['GET', 'HEAD'] }),
  // Below NATS's 1 MiB message limit, so a capped body still fits in the reply with its envelope.
  key('functions.http.max_response_bytes', 'HTTP_MAX_RESPONSE_BYTES', 'int', {
    default: 524_288,
    min: 1,
    unit: 'bytes',
  }),
  key('functions.channels.webhook_url', 'MESSAGE_WEBHOOK_URL', 'url', {
    oneOf: ['http', 'https'],
    secret: true,
    example: 'https://hooks.example.com/notify',
  }),
  // The gateway's own MCP server at /mcp; `mcp.servers` (MCP servers the runner mounts) is read apart.
  key('mcp.serve', 'MCP_SERVE', 'bool', { default: true }),
  // OAuth authorization servers that issue tokens for /mcp (its protected-resource metadata); API keys are accepted either way.
  key('mcp.authorization_servers', 'MCP_AUTHORIZATION_SERVERS', 'list', {
    default: [],
    example: 'https://auth.example.com',
  }),
  // The agent the public A2A card (`/.well-known/agent-card.json`) shows; empty: no public card.
  key('a2a.card_agent', 'A2A_CARD_AGENT', 'string', { default: 'default' }),
  // Memory search by meaning: unset base URL, full text only. An OpenAI-compatible `/embeddings` endpoint.
  key('memory.embeddings.base_url', 'MEMORY_EMBEDDINGS_BASE_URL', 'url', {
    oneOf: ['http', 'https'],
    example: 'https://api.openai.com/v1',
  }),
  key('memory.embeddings.model', 'MEMORY_EMBEDDINGS_MODEL', 'string', { default: 'text-embedding-3-small' }),
  key('memory.embeddings.api_key', 'MEMORY_EMBEDDINGS_API_KEY', 'string', { secret: true }),
  key('memory.embeddings.dimensions', 'MEMORY_EMBEDDINGS_DIMENSIONS', 'int', {
    default: 1536,
    min: 2,
    max: 4096,
  }),
  key('memory.embeddings.timeout', 'MEMORY_EMBEDDINGS_TIMEOUT', 'duration', { default: 10_000, min: 1 }),
  key('scheduler.max_tasks_per_owner', 'SCHEDULER_MAX_TASKS_PER_OWNER', 'int', { default: 100, min: 1 }),
  key('scheduler.min_cron_interval', 'SCHEDULER_MIN_CRON_INTERVAL', 'duration', { default: 1_000, min: 0 }),
  key('scheduler.catchup_window', 'SCHEDULER_CATCHUP_WINDOW', 'duration', { default: 300_000, min: 0 }),
  key('scheduler.fire_timeout', 'SCHEDULER_FIRE_TIMEOUT', 'duration', { default: 30_000, min: 1 }),
  // How late a due time may be before a (re)starting scheduler calls it missed, while peers run.
  key('scheduler.misfire_grace', 'SCHEDULER_MISFIRE_GRACE', 'duration', { default: 60_000, min: 0 }),
  // How often lost triggers, interrupted fires and lost cron ticks are looked for.
  key('scheduler.sweep_interval', 'SCHEDULER_SWEEP_INTERVAL', 'duration', { default: 30_000, min: 100 }),
  // Fires one scheduler instance runs at once.
  key('scheduler.concurrency', 'SCHEDULER_CONCURRENCY', 'int', { default: 50, min: 1, max: 10_000 }),
  // BullMQ key prefix in Redis: deployments (and tests) sharing a Redis keep apart by it.
  key('scheduler.queue_prefix', 'SCHEDULER_QUEUE_PREFIX', 'string', { default: 'ac' }),
] as const satisfies readonly KeySpec[];
