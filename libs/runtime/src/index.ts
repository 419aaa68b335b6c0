export * from './bootstrap';
export * from './health-checks';
export * from './ping.responder';
export * from './probe.server';
export * from './redis.module';
export * from './runtime.module';
export * from './tokens';
export * from './version';
