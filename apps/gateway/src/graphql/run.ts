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

/** Rows re-read with a GraphQL selection, put back in the order the operation listed them. */
export function inOrderOf<T extends { id: string }>(rows: T[], ids: string[]): T[] {
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * Collects the keys asked for while one batch of sibling fields resolves, then loads
 * them with one call (what DataLoader does, for the few fields that need it): a list
 * of N campaigns asking for their counters costs one grouped query, not N.
 */
export function createBatcher<K, V>(load: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V | undefined> {
  let pending: { keys: Set<K>; result: Promise<Map<K, V>> } | null = null;
  return (key) => {
    if (!pending) {
      const keys = new Set<K>();
      const result = new Promise<Map<K, V>>((resolve, reject) => {
        setImmediate(() => {
          pending = null;
          load([...keys]).then(resolve, reject);
        });
      });
      pending = { keys, result };
    }
    pending.keys.add(key);
    return pending.result.then((loaded) => loaded.get(key));
  };
}
