export * from './bus';
export { NatsUnavailableError, NoRespondersError } from './bus-errors';
export * from './connection-watch';
export * from './json.codec';
export { PROGRESS_HEADER, type ProgressOptions, ResponderGoneError } from './progress-request';
