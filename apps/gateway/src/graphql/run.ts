import type { z } from 'zod';
import { GraphQLError } from 'graphql';
import { executeOperation, toDomainError, type Ctx, type Operation, type OperationKind } from '@outreach/core';
import { graphqlError } from '../errors/error-map';

/**
 * Runs an operation for a resolver: GraphQL arguments go through the operation's own
 * zod schema; domain errors become GraphQL errors with `extensions.code`, unknown
 * ones a masked error carrying the request id (and a log line with the details).
 */
export async function runOperation<I extends z.ZodType, O extends z.ZodType>(options: {
  op: Operation<I, O, OperationKind>;
  ctx: Ctx;
  input: unknown;
}): Promise<z.output<O>> {
  return guard(options.ctx, () => executeOperation(options));
}

export async function guard<T>(ctx: Ctx, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof GraphQLError) throw error;
    const domain = toDomainError(error);
    if (domain) throw graphqlError(domain);
    ctx.log.error({ err: error }, 'unhandled error');
    throw new GraphQLError(`Internal server error (request id ${ctx.requestId})`, {
      extensions: { code: 'INTERNAL_SERVER_ERROR', request_id: ctx.requestId },
    });
  }
}
