import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { WorkspaceIdField, requiredOr } from '../shared/schemas';

/** The managed-infrastructure order this answers for always takes 99 mailbox names. */
export const SENDER_PREFIX_TOTAL = 99;
/** At three names each, 33 profiles is the most that still gives every profile a few variations. */
export const MAX_SENDER_PROFILES = 33;

function nameField(description: string) {
  return z
    .string({ error: requiredOr('a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .describe(description);
}

export const SenderProfile = z.object({
  first_name: nameField('First name of a real sender, as it should appear'),
  last_name: nameField('Last name of a real sender, as it should appear'),
  // Forms often send an empty or null middle name for "none"; both mean absent.
  middle_name: z
    .string({ error: 'must be a string' })
    .trim()
    .max(100, 'must be at most 100 characters')
    .nullish()
    .describe('Optional middle name; adds variations with the middle name or its initial'),
});
export type SenderProfile = z.infer<typeof SenderProfile>;

export const GenerateSenderIdentitiesInput = z.object({
  workspace_id: WorkspaceIdField,
  profiles: z
    .array(SenderProfile, { error: requiredOr('an array of profiles') })
    .min(1, 'must contain at least 1 profile')
    .max(MAX_SENDER_PROFILES, `must contain at most ${MAX_SENDER_PROFILES} profiles`)
    .describe(`1 to ${MAX_SENDER_PROFILES} real sender identities; the ${SENDER_PREFIX_TOTAL} names are spread across them`),
});
export type GenerateSenderIdentitiesInput = z.infer<typeof GenerateSenderIdentitiesInput>;

export const SenderIdentity = z.object({
  first_name: z.string().describe('First name as given (trimmed)'),
  last_name: z.string().describe('Last name as given (trimmed)'),
  prefixes: z.array(z.string()).describe('Mailbox usernames (the part before @) generated for this identity'),
});
export type SenderIdentity = z.infer<typeof SenderIdentity>;

export const GenerateSenderIdentitiesOutput = z.object({
  senders: z
    .array(SenderIdentity)
    .describe(`One identity per profile, in input order; ${SENDER_PREFIX_TOTAL} prefixes in total, all distinct. Takes the shape of the DFY order's \`senders\` field.`),
});
export type GenerateSenderIdentitiesOutput = z.infer<typeof GenerateSenderIdentitiesOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(SenderProfile, 'SenderProfile');
nameApiSchema(SenderIdentity, 'SenderIdentity');
