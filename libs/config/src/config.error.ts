export class ConfigError extends Error {
  constructor(
    readonly key: string,
    detail: string,
  ) {
    super(`invalid configuration: ${key}: ${detail}`);
    this.name = 'ConfigError';
  }
}
