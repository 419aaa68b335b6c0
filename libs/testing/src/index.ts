export * from './databases';
export * from './expect-eventually';
