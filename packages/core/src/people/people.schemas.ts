import { z } from 'zod';
import { ObjectId, requiredOr, roleInput } from '../shared/schemas';
import { MAX_PASSWORD_LENGTH, passwordProblem } from './password.rules';

const text = (what: string) => z.string({ error: requiredOr(what) });

export const PersonRoleSchema = roleInput(['OWNER', 'ADMIN', 'MEMBER', 'READ_ONLY']);

export const EmailField = text('a string')
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'must be a valid e-mail address' }).max(254, 'must be at most 254 characters'));
/** A password being set: 10 characters or more. */
export const NewPasswordField = text('a string').superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** A password being checked: never trimmed, only bounded. */
export const GivenPasswordField = text('a string').min(1, 'is required').max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);
export const PersonNameField = text('a string').trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const TokenField = text('a string').trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
/** Who signs in from where, given by the transport (not the caller): kept on the session. */
const ClientFields = {
  user_agent: z.string().max(1000).optional().catch(undefined),
  ip: z.string().max(100).optional().catch(undefined),
};

export const Person = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['OWNER', 'ADMIN', 'MEMBER', 'READ_ONLY']),
  created_at: z.string().describe('ISO 8601'),
});
export type Person = z.infer<typeof Person>;

export const Viewer = z.object({
  person: Person,
  organization_id: z.string(),
  organization_name: z.string(),
  csrf_token: z.string().describe('Send it back in the x-csrf-token header on every write made with the session cookie'),
});
export type Viewer = z.infer<typeof Viewer>;

/** What the operations that start a session answer: the transport puts `session.token` in a cookie, never in a body. */
export const SessionStart = z.object({
  viewer: Viewer,
  session: z.object({ token: z.string(), expires_at: z.string() }),
});
export type SessionStart = z.infer<typeof SessionStart>;

export const SignInInput = z.object({ email: EmailField, password: GivenPasswordField, ...ClientFields });
export const SetUpOwnerInput = z.object({
  token: TokenField,
  email: EmailField,
  name: PersonNameField,
  password: NewPasswordField,
  organization_name: PersonNameField,
  ...ClientFields,
});
export const AcceptInvitationInput = z.object({
  token: TokenField,
  name: PersonNameField,
  // A new person sets it (10 characters or more); a person already of the organization gives theirs.
  password: GivenPasswordField,
  ...ClientFields,
});

export const ViewerInput = z.object({});
export const ViewerOutput = z.object({ viewer: Viewer.nullable() });
export const ListPeopleInput = z.object({});
export const ListPeopleOutput = z.object({ people: z.array(Person) });
export const ChangeRoleInput = z.object({ id: ObjectId, role: PersonRoleSchema });
export const ChangeRoleOutput = z.object({ person: Person });
export const RemovePersonInput = z.object({ id: ObjectId });
export const DoneOutput = z.object({ status: z.literal('success') });
export const SignOutEverywhereOutput = z.object({ status: z.literal('success'), sessions_ended: z.number().int() });
