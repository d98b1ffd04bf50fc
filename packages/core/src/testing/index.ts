export { testDatabase, usingPostgres } from './database';
export { createTestOrganization, testCtx, testServiceDeps, silentLogger } from './factories';
export { createTestCampaign, createTestLead, createTestMailbox, recordTestSend, type TestStep } from './campaign-factory';
export { expectDomainError } from './expect-error';
export { startDnsServer, splitCharacterStrings, type DnsTestServer, type DnsTestRecords, type DnsQuery } from './dns-server';
export { startSmtpServer, type SmtpTestServer, type SmtpTestMessage, type SmtpTestRejection } from './smtp-server';
export { startImapServer, imapServerUnavailable, DOVECOT_BINARY, type ImapTestServer } from './imap-server';
export { createSendingFixture, TestClock } from './sending-fixture';
export { createTestTenant, lateValue, useTestDatabase, type TestOrganization, type TestTenant } from './suite';
