export { defineFunction, type FunctionSpec } from './functions/define-function';
export { InProcessFunctions, type CallOptions } from './functions/in-process-functions';
export { SqliteSessionStore } from './sessions/sqlite-session.store';
export { Param, type AgentFunction, type FunctionContext, type FunctionResult } from '@app/functions';
