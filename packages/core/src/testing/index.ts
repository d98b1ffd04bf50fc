export { testDatabase, usingPostgres } from './database';
export { createTestOrganization, testCtx, testServiceDeps, silentLogger } from './factories';
export { createTestCampaign, createTestLead, createTestMailbox, recordTestSend, type TestStep } from './campaign-factory';
export { expectDomainError } from './expect-error';
