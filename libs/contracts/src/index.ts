import 'reflect-metadata';

export * from './agent';
export * from './errors';
export * from './functions';
export * from './health';
export * from './subjects';
export * from './validate';
