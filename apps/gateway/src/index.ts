export { createApp, VERSION } from './app';
export { listen, type RunningServer } from './server';
export { gatewayDeps, migrate, openDatabase } from './services';
export { loadEnv, type Env } from './env';
export { routes } from './rest/routes';
export type { AppRouter } from './trpc/router';
export { createLogger } from './logger';
