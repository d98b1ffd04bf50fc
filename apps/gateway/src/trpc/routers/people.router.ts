// People over tRPC: reading them and managing roles, and signing out. Signing in (and the other
// operations that start a session) is GraphQL-only: the session token travels in a cookie only.
import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const peopleRouter = router({
  viewer: procedureFor(operations.people.viewer),
  list: procedureFor(operations.people.list),
  changeRole: procedureFor(operations.people.changeRole),
  remove: procedureFor(operations.people.remove),
  signOut: procedureFor(operations.people.signOut),
  signOutEverywhere: procedureFor(operations.people.signOutEverywhere),
});
