import { defineOperation } from '../shared/operation';
import { assertNotClientKey } from '../shared/tenancy';
import {
  AcceptInvitationInput,
  ChangeRoleInput,
  ChangeRoleOutput,
  DoneOutput,
  ListPeopleInput,
  ListPeopleOutput,
  RemovePersonInput,
  SessionStart,
  SetUpOwnerInput,
  SignInInput,
  SignOutEverywhereOutput,
  ViewerInput,
  ViewerOutput,
} from './people.schemas';
import { changePersonRole, endSessions, listPeople, removePerson } from './people.service';
import { viewerOf } from './session.service';
import { acceptInvitation, setUpOwner, signIn } from './sign-in.service';

export const viewer = defineOperation({
  name: 'people.viewer',
  kind: 'query',
  summary: 'The signed-in person',
  description: 'The person of the session cookie, their organization and the CSRF token their writes carry; null without a session (an API key, or no credentials).',
  input: ViewerInput,
  output: ViewerOutput,
  workspace: 'none',
  async run(ctx) {
    const { sessionId } = ctx.actor;
    if (!sessionId) return { viewer: null };
    const session = await ctx.db.userSession.findUnique({
      where: { id: sessionId },
      select: { csrfToken: true, user: { select: { id: true, email: true, name: true, role: true, createdAt: true, organizationId: true, organization: { select: { name: true } } } } },
    });
    if (!session) return { viewer: null };
    return { viewer: viewerOf({ user: session.user, organizationName: session.user.organization.name, csrfToken: session.csrfToken }) };
  },
});

export const list = defineOperation({
  name: 'people.list',
  kind: 'query',
  summary: 'People of the organization',
  description: 'Every person of the caller\'s organization, oldest first, with their role. Client-access keys cannot list them (403).',
  input: ListPeopleInput,
  output: ListPeopleOutput,
  workspace: 'none',
  async run(ctx) {
    assertNotClientKey(ctx.actor);
    return { people: await listPeople(ctx) };
  },
});

export const changeRole = defineOperation({
  name: 'people.changeRole',
  kind: 'mutation',
  role: 'admin',
  summary: 'Change a person\'s role',
  description: [
    'Sets the role (OWNER, ADMIN, MEMBER, READ_ONLY) of a person of the organization. Owners and admins only; only an owner',
    'changes an owner or makes someone an owner (403 `people.owner_required`); the last owner cannot be demoted (409',
    '`people.last_owner`). Takes effect on the person\'s next request (within 5 s in other processes).',
  ].join(' '),
  input: ChangeRoleInput,
  output: ChangeRoleOutput,
  workspace: 'none',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    return { person: await changePersonRole(ctx, input) };
  },
});

export const remove = defineOperation({
  name: 'people.remove',
  kind: 'mutation',
  role: 'admin',
  summary: 'Remove a person',
  description: 'Removes a person of the organization with their sessions. The same rules as changing a role: only an owner removes an owner, the last owner stays.',
  input: RemovePersonInput,
  output: DoneOutput,
  workspace: 'none',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    await removePerson(ctx, input);
    return { status: 'success' as const };
  },
});

export const signOut = defineOperation({
  name: 'people.signOut',
  kind: 'mutation',
  role: 'anyone',
  summary: 'Sign out',
  description: 'Ends the session of the request\'s cookie (read-only people may too). Needs a session: 403 `people.session_required` with an API key.',
  input: ViewerInput,
  output: DoneOutput,
  workspace: 'none',
  async run(ctx) {
    await endSessions(ctx, { everywhere: false });
    return { status: 'success' as const };
  },
});

export const signOutEverywhere = defineOperation({
  name: 'people.signOutEverywhere',
  kind: 'mutation',
  role: 'anyone',
  summary: 'Sign out everywhere',
  description: 'Ends every session of the signed-in person, this one included.',
  input: ViewerInput,
  output: SignOutEverywhereOutput,
  workspace: 'none',
  async run(ctx) {
    return { status: 'success' as const, sessions_ended: await endSessions(ctx, { everywhere: true }) };
  },
});

// The operations that start a session answer its token, which only a transport that sets the
// cookie may carry (GraphQL: signIn, setUpOwner, acceptInvitation). They are public (no actor) and
// not in the registry, so no other transport exposes them by accident.

export const signInOperation = defineOperation({
  name: 'people.signIn',
  kind: 'mutation',
  summary: 'Sign in',
  description: 'Starts a session for the person with this e-mail address and password. A wrong password and an unknown address are the same 401 `people.invalid_credentials`; 10 failures for an address in 15 minutes answer 429 `people.too_many_failures` with Retry-After.',
  input: SignInInput,
  output: SessionStart,
  workspace: 'none',
  run: signIn,
});

export const setUpOwnerOperation = defineOperation({
  name: 'people.setUpOwner',
  kind: 'mutation',
  summary: 'Create the owner from a setup link',
  description: 'Creates the owner (and the organization, unless the link names one) from a one-time setup link, and signs them in.',
  input: SetUpOwnerInput,
  output: SessionStart,
  workspace: 'none',
  run: setUpOwner,
});

export const acceptInvitationOperation = defineOperation({
  name: 'people.acceptInvitation',
  kind: 'mutation',
  summary: 'Accept an invitation as a person',
  description: 'Accepts a workspace invitation in the web app: a new person sets a password (10 characters or more) and gets the invitation\'s role; a person of the organization with the invited address gives their password and gets the workspace. Signs them in.',
  input: AcceptInvitationInput,
  output: SessionStart,
  workspace: 'none',
  run: acceptInvitation,
});
