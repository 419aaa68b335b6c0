export * from './bus';
export * from './bus.types';
export { NatsUnavailableError, NoRespondersError } from './bus-errors';
export * from './connection-watch';
export * from './json.codec';
export { PROGRESS_HEADER, type ProgressOptions, ResponderGoneError } from './progress-request';
export { ACK_AFTER_MS } from './answer';
export { KvBucket, type KvBucketOptions, type KvEntry } from './kv-bucket';
export { EventLog, type EventLogOptions, type LoggedEvent } from './event-log';
