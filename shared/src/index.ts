export * from './constants.ts';
export * from './plans.ts';
export * from './file-kind.ts';
export * from './slug.ts';
export * from './derived.ts';
export * from './schemas.ts';
export * from './viewer.ts';
export * from './file-name.ts';
