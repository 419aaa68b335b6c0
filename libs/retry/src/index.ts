export { Backoff, type BackoffPolicy, sleep } from './backoff';
export { coalesced } from './coalesce';
export { retry, type RetryOptions } from './retry';
