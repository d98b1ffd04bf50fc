import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError, type z } from 'zod';
import { assertOperationAllowed, assertWellFormedText, executeParsedOperation, fromZodError, toDomainError, type Ctx, type Operation, type OperationKind } from '@outreach/core';
import { maskedInternalError, trpcError } from '../errors/error-map';
import { RequestProblemError, TOO_LARGE } from '../request-body';
import { anonymousContext, callerContext, type GatewayDeps } from '../request-context';

/** Request-free: tests build it directly, the HTTP adapter builds it from headers. */
export interface TrpcContext {
  deps: GatewayDeps;
  apiKey: string | undefined;
  /** The session cookie and the CSRF header: used when no API key is sent (mutations need the CSRF token). */
  sessionToken?: string | undefined;
  csrfToken?: string | undefined;
  requestId: string;
  /** For rate-limiting public procedures and failed authentications per client. */
  clientAddress: string;
}

const t = initTRPC.context<TrpcContext>().create({
  isDev: false,
  errorFormatter({ shape, error, ctx }) {
    const cause = error.cause;
    // An unreadable body (charset, compression, size): tRPC's code and the stable code. A
    // non-JSON body over the limit is stopped by tRPC itself (maxBodySize), with no message.
    const problem = cause instanceof RequestProblemError ? cause.problem : error.code === 'PAYLOAD_TOO_LARGE' ? TOO_LARGE : null;
    if (problem) return { ...shape, message: problem.message, data: { ...shape.data, domain_code: problem.code } };
    const domain = cause instanceof ZodError ? fromZodError(cause) : toDomainError(cause);
    if (error.code === 'INTERNAL_SERVER_ERROR' && !domain) {
      const masked = maskedInternalError(ctx?.requestId ?? 'unknown');
      return { ...shape, message: masked.message, data: { ...shape.data, request_id: masked.request_id } };
    }
    return {
      ...shape,
      message: domain?.message ?? shape.message,
      data: {
        ...shape.data,
        ...(domain ? { domain_code: domain.code, kind: domain.kind } : {}),
        ...(domain?.fieldErrors.length ? { errors: domain.fieldErrors } : {}),
        ...(domain?.retryAfter !== undefined ? { retry_after: domain.retryAfter } : {}),
      },
    };
  },
});

export const router = t.router;

/**
 * The text rule of every operation (no NUL, no lone surrogate; see input-text.rules in
 * core), on the raw input before `.input()` parses it, as executeOperation does.
 */
const wellFormedText = t.middleware(async ({ getRawInput, next }) => {
  try {
    assertWellFormedText(await getRawInput());
  } catch (error) {
    throw trpcError(error);
  }
  return next();
});

const authenticated = t.procedure.use(async ({ ctx, type, next }) => {
  let opCtx: Ctx;
  try {
    const credentials = { apiKey: ctx.apiKey, sessionToken: ctx.sessionToken, csrfToken: ctx.csrfToken };
    opCtx = await callerContext({ deps: ctx.deps, credentials, requestId: ctx.requestId, clientAddress: ctx.clientAddress, writes: type !== 'query' });
  } catch (error) {
    throw trpcError(error);
  }
  return next({ ctx: { ...ctx, op: opCtx } });
});

/**
 * An authenticated procedure of `op`: whether the key's kind may call it (partner keys only the
 * partner operations; core's assertOperationAllowed, which executeOperation applies too) is
 * checked after the text rule and before the input is parsed, so a refused key gets its 403
 * whatever else it sends.
 */
function authedFor(op: Pick<Operation, 'name' | 'partner' | 'kind' | 'role'>) {
  return authenticated
    .use(wellFormedText)
    .use(({ ctx, next }) => {
      try {
        assertOperationAllowed(op, ctx.op.actor);
      } catch (error) {
        throw trpcError(error);
      }
      return next();
    });
}

/** Procedures answered without an API key (accepting an invitation). */
const anonymous = t.procedure.use(async ({ ctx, next }) => {
  let opCtx: Ctx;
  try {
    opCtx = anonymousContext({ deps: ctx.deps, requestId: ctx.requestId, clientAddress: ctx.clientAddress });
  } catch (error) {
    throw trpcError(error);
  }
  return next({ ctx: { ...ctx, op: opCtx } });
}).use(wellFormedText);

/** A public mutation from an operation whose `run` needs no actor. */
export function publicMutationFor<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O, 'mutation'>) {
  return anonymous.input(op.input).output(op.output).mutation(resolverOf(op));
}

type ProcedureOf<I extends z.ZodType, O extends z.ZodType, K extends OperationKind> = K extends 'query'
  ? ReturnType<typeof queryOf<I, O>>
  : ReturnType<typeof mutationOf<I, O>>;

function resolverOf<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O, OperationKind>) {
  // tRPC has parsed the input with op.input already; its generic type is opaque here.
  return async ({ ctx, input }: { ctx: { op: Ctx }; input: unknown }) => {
    try {
      // The .output() parser types what clients see; the cast only bridges tRPC's generic here.
      return (await executeParsedOperation({ op, ctx: ctx.op, input: input as z.output<I> })) as never;
    } catch (error) {
      if (!toDomainError(error)) ctx.op.log.error({ err: error, op: op.name }, 'unhandled error');
      throw trpcError(error);
    }
  };
}

function queryOf<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O, OperationKind>) {
  return authedFor(op).input(op.input).output(op.output).query(resolverOf(op));
}

function mutationOf<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O, OperationKind>) {
  return authedFor(op).input(op.input).output(op.output).mutation(resolverOf(op));
}

/** One tRPC procedure from one operation: same input and output schemas, same rules. */
export function procedureFor<I extends z.ZodType, O extends z.ZodType, K extends OperationKind>(
  op: Operation<I, O, K>,
): ProcedureOf<I, O, K> {
  return (op.kind === 'query' ? queryOf(op) : mutationOf(op)) as ProcedureOf<I, O, K>;
}

export { TRPCError };
