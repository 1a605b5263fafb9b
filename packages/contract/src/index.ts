export * from './constants.ts';
export * from './envelope.ts';
export * from './rules.ts';
export * from './site.ts';
export * from './sources.ts';
