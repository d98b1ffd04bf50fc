export * from './shared/index';
export { operations, type Operations } from './operations';
export * from './auth/api-key.rules';
export { createAuthenticator, unauthenticated, type Authenticator } from './auth/authenticate.service';
export { createOrganization, issueApiKey, revokeApiKey } from './auth/organization.service';
export { SYSTEM_LEAD_LABELS } from './workspace/workspace.rules';
export * from './workspace/workspace.schemas';
export * from './lead-label/lead-label.schemas';
