export { testDatabase, usingPostgres } from './database';
export { createTestOrganization, testCtx, testServiceDeps, silentLogger } from './factories';
