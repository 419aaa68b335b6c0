// The part of this library with no platform dependency (no bus, metrics or Nest): declaring,
// describing, validating and running a function. The embedded SDK ships exactly this part.
export * from './agent-function';
export * from './allow-list';
export * from './definition';
export * from './host/call-outcome';
export * from './params/param.decorator';
export * from './params/params-schema';
export * from './params/schema-class';
export * from './params/parse-params';
