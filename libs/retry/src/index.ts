export { Backoff, type BackoffPolicy, sleep } from './backoff';
export { retry, type RetryOptions } from './retry';
