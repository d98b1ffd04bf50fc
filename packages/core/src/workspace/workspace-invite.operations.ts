import { newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { assertNotClientKey } from '../shared/tenancy';
import { generateInviteToken, hashInviteToken, INVITE_TTL_MS } from './workspace-invite.rules';
import { AcceptInviteInput, AcceptInviteOutput, InviteUserInput, InviteUserOutput } from './workspace-invite.schemas';
import { acceptInvite } from './workspace-invite.service';

export const inviteUser = defineOperation({
  name: 'workspace.inviteUser',
  kind: 'mutation',
  role: 'admin',
  summary: 'Invite a user to a workspace',
  description: [
    'Creates a pending invitation of `email` (lower-cased) to the workspace with `role` ADMIN, MEMBER or READ_ONLY, valid 7 days.',
    'Answers the invitation token once (32 random bytes, base64url); only its SHA-256 hash is stored. The invitation is',
    'NOT e-mailed: there is no system mailer yet, so the caller hands the token to the person, who accepts it with',
    '`POST /workspaces/accept-invite`. Inviting an address that already has a pending, unexpired invitation to the same',
    'workspace replaces it (the old token stops working). The key issued on acceptance reaches only the workspace and acts',
    'with the role (READ_ONLY: queries only; MEMBER: no admin operation); the person may instead accept it in the web app',
    '(GraphQL `acceptInvitation`), which makes them a person of the organization. Client-access keys cannot invite (403).',
  ].join(' '),
  input: InviteUserInput,
  output: InviteUserOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const now = ctx.ports.clock.now();
    const token = generateInviteToken();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
    const id = newId();
    await ctx.db.$transaction(async (tx) => {
      await tx.workspaceInvite.deleteMany({
        where: { workspaceId: input.workspace_id, email: input.email, acceptedAt: null, expiresAt: { gt: now } },
      });
      await tx.workspaceInvite.create({
        data: {
          id,
          organizationId: ctx.actor.organizationId,
          workspaceId: input.workspace_id,
          email: input.email,
          role: input.role,
          tokenHash: hashInviteToken(token),
          expiresAt,
          createdAt: now,
        },
      });
    });
    return { status: 'success' as const, invite_id: id, token, expires_at: expiresAt.toISOString() };
  },
});

export const acceptWorkspaceInvite = defineOperation({
  name: 'workspace.acceptInvite',
  kind: 'mutation',
  summary: 'Accept a workspace invitation',
  description: [
    'Answered without an API key: the invited person has none yet. Exchanges an invitation token for an API key limited',
    'to the invitation\'s workspace (shown once) and marks the invitation accepted, in one transaction. An unknown,',
    'expired or already used token is the same 400 `invite.invalid_token`.',
  ].join(' '),
  input: AcceptInviteInput,
  output: AcceptInviteOutput,
  workspace: 'none',
  async run(ctx, input) {
    const accepted = await acceptInvite({ db: ctx.db, token: input.token, now: ctx.ports.clock.now() });
    return { status: 'success' as const, workspace_id: accepted.workspaceId, api_key: accepted.apiKey };
  },
});
