export * from './errors';
export * from './context';
export * from './operation';
export * from './ports';
export * from './schemas';
export * from './tenancy';
export * from './dns';
