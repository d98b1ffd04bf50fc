// People of an organization, their sign-in, sessions and roles (docs/api.md, "People and sign-in").
// The operations of this domain, keyed as their tRPC procedures are (`people.<key>`).
import { acceptInvitationOperation, changeRole, list, remove, setUpOwnerOperation, signInOperation, signOut, signOutEverywhere, viewer } from './people.operations';

export const peopleOperations = {
  viewer,
  list,
  changeRole,
  remove,
  signOut,
  signOutEverywhere,
} as const;

/** The public operations that start a session (GraphQL only: the token goes into a cookie). */
export const sessionOperations = {
  signIn: signInOperation,
  setUpOwner: setUpOwnerOperation,
  acceptInvitation: acceptInvitationOperation,
} as const;

export { authenticateSession, forgetSessions, personActor, type SessionPrincipal } from './session.service';
export { createSetupLink, ensureSetupLink, type SetupLink } from './setup.service';
export { hashPassword, verifyPassword, MIN_PASSWORD_LENGTH } from './password.rules';
export { SESSION_COOKIE, CSRF_HEADER, SESSION_IDLE_MS, SESSION_MAX_MS } from './session.rules';
