export interface BackoffPolicy {
  firstMs: number;
  maxMs: number;
  stableMs: number;
  quickExitMs: number;
  crashLoopAfter: number;
}
export declare const BACKOFF: BackoffPolicy;
export declare class Backoff {
  readonly policy: BackoffPolicy;
  constructor(policy?: BackoffPolicy);
  onExit(uptimeMs: number): number;
  get justStartedLooping(): boolean;
  get quickExits(): number;
}
