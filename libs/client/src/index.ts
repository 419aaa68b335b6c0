export { AgentChassisClient, type ClientOptions } from './client';
export { AgentChassisError, type ClientErrorCode } from './errors';
export { readSse, SseParser, type SseMessage } from './sse';
export * from './types';
