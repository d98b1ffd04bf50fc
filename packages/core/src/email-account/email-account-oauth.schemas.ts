import { z } from 'zod';
import { BoolInput, StatusSuccess, WorkspaceIdField } from '../shared/schemas';

export const OAuthStartInput = z.object({
  workspace_id: WorkspaceIdField,
  redirect_after: z
    .string({ error: 'must be a string' })
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .optional()
    .describe(
      "Where the browser goes once the mailbox is connected, with `email_account_id` and `status=connected` added to its query (`status=error&error=<code>` when the callback fails). An absolute http(s) URL on PUBLIC_URL's origin or on one listed in OAUTH_REDIRECT_ORIGINS; without it the callback answers a page saying the mailbox is connected",
    ),
  redirect: BoolInput.default(false).describe('"true": REST answers 302 with the authorization URL in `Location` instead of JSON (other transports answer the URL)'),
});
export type OAuthStartInput = z.infer<typeof OAuthStartInput>;

export const OAuthStartOutput = z.object({
  status: StatusSuccess,
  url: z.string().describe("The provider's authorization URL, valid for 10 minutes and for one authorization: open it in the mailbox owner's browser"),
});
export type OAuthStartOutput = z.infer<typeof OAuthStartOutput>;

export const OAuthProvidersInput = z.object({ workspace_id: WorkspaceIdField });
export type OAuthProvidersInput = z.infer<typeof OAuthProvidersInput>;

export const OAuthProvidersOutput = z.object({
  google: z.boolean().describe('Google Workspace mailboxes can be connected: the installation has a Google OAuth client id and secret'),
  microsoft: z.boolean().describe('Microsoft 365 mailboxes can be connected: the installation has a Microsoft OAuth client id and secret'),
});
export type OAuthProvidersOutput = z.infer<typeof OAuthProvidersOutput>;
