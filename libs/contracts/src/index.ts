import 'reflect-metadata';

export * from './agent';
export * from './agent-profile';
export * from './agent-runs';
export * from './api-keys';
export * from './errors';
export * from './function-calls';
export * from './functions';
export * from './health';
export * from './listing';
export * from './json-schema';
export * from './scheduler';
export * from './route';
export * from './routes';
export * from './subjects';
export * from './validate';
export * from './openai-requests';
export * from './openai-responses';
