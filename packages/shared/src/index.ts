export * from './auth.ts';
export * from './catalog.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './money.ts';
export * from './payments.ts';
export * from './roles.ts';
export * from './validation.ts';
