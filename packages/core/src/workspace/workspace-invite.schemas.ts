import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { StatusSuccess, WorkspaceIdField, requiredOr, roleInput } from '../shared/schemas';

/** Lenient in what it takes: any case, `read-only` and `read only` for READ_ONLY. */
export const InviteRole = roleInput(['ADMIN', 'MEMBER', 'READ_ONLY']);
export type InviteRole = z.infer<typeof InviteRole>;

export const InviteUserInput = z.object({
  workspace_id: WorkspaceIdField,
  email: z
    .string({ error: requiredOr('a string') })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'must be a valid e-mail address' }).max(254, 'must be at most 254 characters')),
  role: InviteRole,
});
export type InviteUserInput = z.infer<typeof InviteUserInput>;

export const InviteUserOutput = z.object({
  status: StatusSuccess,
  invite_id: z.string(),
  token: z.string().describe('The invitation token, shown once: hand it to the invited person'),
  expires_at: z.string().describe('ISO 8601; 7 days after the invitation'),
});
export type InviteUserOutput = z.infer<typeof InviteUserOutput>;

export const AcceptInviteInput = z.object({
  token: z.string({ error: requiredOr('a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
});
export type AcceptInviteInput = z.infer<typeof AcceptInviteInput>;

export const AcceptInviteOutput = z.object({
  status: StatusSuccess,
  workspace_id: z.string(),
  api_key: z.string().describe('An API key limited to the workspace, shown once'),
});
export type AcceptInviteOutput = z.infer<typeof AcceptInviteOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(InviteUserOutput, 'WorkspaceInvitation');
