export * from './logger';
export * from './metrics';
export * from './redact';
export * from './tracing';
