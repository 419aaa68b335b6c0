export * from './bus';
export * from './json.codec';
