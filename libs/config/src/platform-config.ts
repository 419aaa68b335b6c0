/** The whole platform's configuration, typed. Each app reads only its own part of it. */
export interface PlatformConfig {
  llm: {
    provider: 'openai' | 'openai-compatible' | 'azure' | 'ollama' | 'anthropic' | 'custom';
    base_url?: string;
    api_key?: string;
    model: string;
    timeout: number;
    max_retries: number;
  };
  nats: { url: string; user?: string; password?: string; creds_file?: string };
  redis: { url: string };
  database: { url: string };
  gateway: { port: number; host: string };
  metrics: { port: number };
  log: { level: 'debug' | 'info' | 'warn' | 'error'; format: 'json' | 'text' };
  functions: {
    dir: string;
    default_timeout: number;
    concurrency: number;
    sandbox_memory_mb: number;
    http: { allowed_domains: string[]; allowed_methods: string[]; max_response_bytes: number };
    channels: { webhook_url?: string };
  };
  scheduler: {
    max_tasks_per_owner: number;
    min_cron_interval: number;
    catchup_window: number;
    fire_timeout: number;
  };
  /** Sections that belong to one app and are validated there (e.g. `agents`). */
  sections: Record<string, unknown>;
  /** Values of every key marked secret, for central redaction. */
  secrets: string[];
}
