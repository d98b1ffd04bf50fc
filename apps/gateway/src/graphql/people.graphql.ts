// GraphQL of people and sign-in: the web app's contract (docs/api.md, "People and sign-in"). The
// fields run core's people operations; the three that start a session, and signOut, also set or
// clear the session cookie, which is why this file holds its own types rather than derived ones.
import type { ServerResponse } from 'node:http';
import { operations, SESSION_COOKIE, sessionOperations, SESSION_MAX_MS, toDomainError, type Ctx } from '@outreach/core';
import { builder, type GraphqlContext } from './builder';
import { optionalSessionContext } from '../request-context';
import { answeredAs, operationField, run } from './operation-field';

type PersonRow = { id: string; email: string; name: string; role: 'OWNER' | 'ADMIN' | 'MEMBER' | 'READ_ONLY'; created_at: string };
type ViewerRow = { person: PersonRow; organization_id: string; organization_name: string; csrf_token: string };

const PersonRole = builder.enumType('PersonRole', {
  description: 'OWNER and ADMIN reach every workspace of the organization; MEMBER and READ_ONLY the workspaces they were invited to; READ_ONLY runs queries only',
  values: ['OWNER', 'ADMIN', 'MEMBER', 'READ_ONLY'] as const,
});

const Person = builder.objectRef<PersonRow>('Person').implement({
  description: 'A person of the organization, who signs in to the web app',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    role: t.field({ type: PersonRole, resolve: (p) => p.role }),
    createdAt: t.string({ description: 'ISO 8601', resolve: (p) => p.created_at }),
  }),
});

const Viewer = builder.objectRef<ViewerRow>('Viewer').implement({
  description: 'The signed-in person',
  fields: (t) => ({
    person: t.field({ type: Person, resolve: (v) => v.person }),
    organizationId: t.id({ resolve: (v) => v.organization_id }),
    organizationName: t.string({ resolve: (v) => v.organization_name }),
    csrfToken: t.string({ description: 'Send it in the x-csrf-token header with every mutation made with the session cookie', resolve: (v) => v.csrf_token }),
  }),
});

/** `outreach_session`: HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https; 90 days (the session's own limit). */
function sessionCookie(ctx: Ctx, value: string, maxAgeSeconds: number): string {
  const secure = ctx.settings.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

function setCookie(res: ServerResponse | undefined, cookie: string): void {
  if (!res || res.headersSent) return;
  res.appendHeader('Set-Cookie', cookie);
  res.setHeader('Cache-Control', 'no-store');
}

/**
 * Runs an operation that starts a session and puts its token in the cookie (never in the answer).
 * Sign-in failures also spend the client address's failure budget (AUTH_FAILURE_BURST), as bad
 * API keys do; a throttled attempt carries Retry-After.
 */
async function startSession(gql: GraphqlContext, op: (typeof sessionOperations)[keyof typeof sessionOperations], input: Record<string, unknown>): Promise<ViewerRow> {
  const { ctx, http } = gql;
  const budgeted = op === sessionOperations.signIn || op === sessionOperations.acceptInvitation;
  try {
    if (budgeted && http) http.deps.authFailures.check(http.clientAddress);
    const started = await run(ctx, op, { ...input, user_agent: http?.userAgent?.slice(0, 1000), ip: http?.clientAddress });
    setCookie(http?.res, sessionCookie(ctx, started.session.token, Math.floor(SESSION_MAX_MS / 1000)));
    if (!http) return started.viewer;
    // The viewer's fields (its workspaces) run as the person now signed in.
    return answeredAs(started.viewer, await optionalSessionContext({ deps: http.deps, sessionToken: started.session.token, requestId: ctx.requestId, clientAddress: http.clientAddress }));
  } catch (error) {
    const domain = toDomainError(error);
    if (domain?.code === 'people.invalid_credentials' && http) http.deps.authFailures.charge(http.clientAddress);
    if (domain?.retryAfter !== undefined && http && !http.res.headersSent) http.res.setHeader('Retry-After', String(domain.retryAfter));
    throw error;
  }
}

// The workspaces the person reaches, with the viewer: the app's first request has all it needs.
operationField('workspaces', operations.workspace.list, { on: { ref: Viewer, bind: {} }, result: 'workspaces', type: 'Workspace', description: 'The workspaces the signed-in person reaches, oldest first' });

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    nullable: true,
    description: 'The signed-in person of the session cookie; null without a valid session (answers without credentials)',
    resolve: async (_root, _args, { ctx }) => (await run(ctx, operations.people.viewer, {})).viewer,
  }),
);

builder.queryField('people', (t) =>
  t.field({
    type: [Person],
    description: operations.people.list.description,
    resolve: async (_root, _args, { ctx }) => (await run(ctx, operations.people.list, {})).people,
  }),
);

builder.mutationField('signIn', (t) =>
  t.field({
    type: Viewer,
    description: `${sessionOperations.signIn.description} Sets the session cookie.`,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, gql) => startSession(gql, sessionOperations.signIn, { email: args.email, password: args.password }),
  }),
);

builder.mutationField('setUpOwner', (t) =>
  t.field({
    type: Viewer,
    description: `${sessionOperations.setUpOwner.description} Sets the session cookie.`,
    args: {
      token: t.arg.string({ required: true }),
      email: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      organizationName: t.arg.string({ required: true }),
    },
    resolve: (_root, args, gql) =>
      startSession(gql, sessionOperations.setUpOwner, { token: args.token, email: args.email, name: args.name, password: args.password, organization_name: args.organizationName }),
  }),
);

builder.mutationField('acceptInvitation', (t) =>
  t.field({
    type: Viewer,
    description: `${sessionOperations.acceptInvitation.description} Sets the session cookie.`,
    args: { token: t.arg.string({ required: true }), name: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, gql) => startSession(gql, sessionOperations.acceptInvitation, { token: args.token, name: args.name, password: args.password }),
  }),
);

builder.mutationField('signOut', (t) =>
  t.field({
    type: 'Boolean',
    description: `${operations.people.signOut.description} Clears the session cookie.`,
    resolve: async (_root, _args, { ctx, http }) => {
      await run(ctx, operations.people.signOut, {});
      setCookie(http?.res, sessionCookie(ctx, '', 0));
      return true;
    },
  }),
);

builder.mutationField('signOutEverywhere', (t) =>
  t.field({
    type: 'Boolean',
    description: `${operations.people.signOutEverywhere.description} Clears the session cookie.`,
    resolve: async (_root, _args, { ctx, http }) => {
      await run(ctx, operations.people.signOutEverywhere, {});
      setCookie(http?.res, sessionCookie(ctx, '', 0));
      return true;
    },
  }),
);

builder.mutationField('changePersonRole', (t) =>
  t.field({
    type: Person,
    description: operations.people.changeRole.description,
    args: { id: t.arg.id({ required: true }), role: t.arg({ type: PersonRole, required: true }) },
    resolve: async (_root, args, { ctx }) => (await run(ctx, operations.people.changeRole, { id: String(args.id), role: args.role })).person,
  }),
);

builder.mutationField('removePerson', (t) =>
  t.field({
    type: 'Boolean',
    description: operations.people.remove.description,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await run(ctx, operations.people.remove, { id: String(args.id) });
      return true;
    },
  }),
);
