export * from './config-keys';
export * from './config.error';
export * from './load-config';
export * from './mcp-config';
export * from './a2a-config';
export { maskUrl } from './parse-value';
export * from './platform-config';
export * from './pricing-config';
export * from './command-line';
