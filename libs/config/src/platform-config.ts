import type { ModelPrice } from '@app/contracts';
import type { McpServerConfig } from './mcp-config';

/** The whole platform's configuration, typed. Each app reads only its own part of it. */
export interface PlatformConfig {
  llm: {
    provider: 'openai' | 'openai-compatible' | 'azure' | 'ollama' | 'anthropic' | 'custom';
    base_url?: string;
    api_key?: string;
    model: string;
    timeout: number;
    max_retries: number;
    /** HTTP(S) proxy for model calls, e.g. `http://proxy:3128`; hosts in `no_proxy` go direct. */
    proxy?: string;
    no_proxy: string[];
  };
  executor: {
    /** The overall deadline of one agent run; the gateway waits this long (plus a grace) for a reply. */
    run_timeout: number;
    /** How long the executor trusts its copy of the function catalog before asking again. */
    catalog_ttl: number;
    /** How often an executor renews the leases of the runs it holds (and looks for lapsed ones). */
    lease_heartbeat: number;
    /** A run's lease runs this long past its last renewal; then another executor takes the run over. */
    lease_lapse: number;
    /** How long a call held for approval waits (unless its agent says otherwise); 0: no limit. */
    approval_timeout: number;
    /** What an approval's timeout decides, unless its agent says otherwise. */
    approval_default: 'reject' | 'approve';
    /**
     * Most prompt tokens the function definitions of a text-protocol run may take; over it they are
     * listed one line each and `function_describe` gives a full signature on demand.
     */
    function_definition_budget: number;
    /** How deep agents called as functions may nest (an agent called by an agent called by …). */
    agent_call_depth: number;
  };
  nats: {
    url: string;
    user?: string;
    password?: string;
    creds_file?: string;
    tls_ca_file?: string;
    tls_cert_file?: string;
    tls_key_file?: string;
  };
  redis: { url: string };
  database: { url: string; dev_postgres_url: string };
  gateway: { port: number; host: string };
  /** Probe/metrics server of the non-HTTP services; unset = off, 0 = any free port. */
  metrics: { port?: number };
  /** Tracing is on when an OTLP endpoint is set (the exporter reads the standard OTEL_* variables). */
  tracing: { otlp_endpoint?: string; otlp_traces_endpoint?: string; trace_url_template?: string };
  log: { level: 'debug' | 'info' | 'warn' | 'error'; format: 'json' | 'text' };
  functions: {
    dir: string;
    default_timeout: number;
    concurrency: number;
    /** How long the outcome of a call sent with an idempotency key is kept (ms). */
    outcome_ttl: number;
    sandbox_memory_mb: number;
    /** Warm sandbox processes per runner; each runs one call at a time. */
    sandbox_workers: number;
    http: { allowed_domains: string[]; allowed_methods: string[]; max_response_bytes: number };
    channels: { webhook_url?: string };
  };
  scheduler: {
    max_tasks_per_owner: number;
    min_cron_interval: number;
    catchup_window: number;
    fire_timeout: number;
    /** How late a due time may be before a (re)starting scheduler calls it missed, while peers run. */
    misfire_grace: number;
    /** How often lost triggers, interrupted fires and lost cron ticks are looked for. */
    sweep_interval: number;
    /** Fires one scheduler instance runs at once. */
    concurrency: number;
    /** BullMQ key prefix in Redis: deployments (and tests) sharing a Redis keep apart by it. */
    queue_prefix: string;
  };
  security: {
    admin_key?: string;
    auth: boolean;
    metrics_public: boolean;
    /** The API document and its UI (`/api/openapi.json`, `/api/docs`) answer without a key. */
    docs_public: boolean;
    rate_limit_per_minute: number;
    max_concurrent_runs: number;
    daily_token_quota: number;
    /** USD an API key may spend a day (its own setting wins); no limit when unset. */
    daily_cost_budget_usd?: number;
  };
  /** Each model's price in USD per million tokens; a model left out has no price (runs show no cost). */
  pricing: Record<string, ModelPrice>;
  mcp: {
    /** Whether the gateway serves `/mcp`. */
    serve: boolean;
    /** MCP servers whose tools the function-runner serves as functions. */
    servers: McpServerConfig[];
  };
  memory: {
    /** Segments and queries embedded for search by meaning; without `base_url`, full-text search only. */
    embeddings: {
      base_url?: string;
      model: string;
      api_key?: string;
      dimensions: number;
      timeout: number;
    };
  };
  /** On SIGTERM, how long in-flight requests may take to finish before the bus closes. */
  shutdown: { timeout: number };
  /** Sections that belong to one app and are validated there (e.g. `agents`). */
  sections: Record<string, unknown>;
  /** Values of every key marked secret, for central redaction. */
  secrets: string[];
}
