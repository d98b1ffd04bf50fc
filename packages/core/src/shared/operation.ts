import type { z } from 'zod';
import type { Ctx } from './context';
import { fromZodError, invalidField } from './errors';
import { assertWorkspaceAccess } from './tenancy';
import { findMalformedText } from './input-text.rules';

export type OperationKind = 'query' | 'mutation';

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, K extends OperationKind = OperationKind> {
  /** Also the tRPC path, the log field and the OpenAPI operationId: `campaign.launch`. */
  name: string;
  kind: K;
  summary: string;
  /** Behaviour and the decisions taken where the vendor documents nothing; shown in OpenAPI. */
  description?: string;
  input: I;
  output: O;
  /**
   * How the operation is scoped: `required` and `optional` read `workspace_id` from the
   * input and check it against the caller before `run`; `none` leaves scoping to `run`.
   */
  workspace: 'required' | 'optional' | 'none';
  /** Client-access permission the operation needs (CAMPAIGN_LIST, …); organization keys have all. */
  permission?: string;
  run(ctx: Ctx, input: z.output<I>): Promise<z.input<O>>;
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType, const K extends OperationKind>(
  op: Operation<I, O, K>,
): Operation<I, O, K> {
  return op;
}


/** Refuses input holding a string with a NUL or a lone surrogate (see input-text.rules). */
export function assertWellFormedText(input: unknown): void {
  const malformed = findMalformedText(input);
  if (malformed) throw invalidField(malformed.field, malformed.message);
}

/**
 * The one way every transport runs an operation: refuse malformed text, validate the
 * input with the operation's schema, check the caller may touch the workspace, then run.
 */
export async function executeOperation<I extends z.ZodType, O extends z.ZodType>(options: {
  op: Operation<I, O, OperationKind>;
  ctx: Ctx;
  input: unknown;
}): Promise<z.output<O>> {
  assertWellFormedText(options.input);
  const parsed = options.op.input.safeParse(options.input ?? {});
  if (!parsed.success) throw fromZodError(parsed.error);
  return executeParsedOperation({ op: options.op, ctx: options.ctx, input: parsed.data as z.output<I> });
}

/**
 * For transports that validated the input with the operation's own schema already (tRPC,
 * which applies `assertWellFormedText` to the raw input in its base procedures).
 */
export async function executeParsedOperation<I extends z.ZodType, O extends z.ZodType>(options: {
  op: Operation<I, O, OperationKind>;
  ctx: Ctx;
  input: z.output<I>;
}): Promise<z.output<O>> {
  const { op, ctx, input } = options;
  if (op.workspace !== 'none') {
    const workspaceId = (input as { workspace_id?: string }).workspace_id;
    if (workspaceId === undefined) {
      if (op.workspace === 'required') throw invalidField('workspace_id', 'is required');
    } else {
      await assertWorkspaceAccess({ ctx, workspaceId, permission: op.permission });
    }
  }
  const started = performance.now();
  const output = await op.run(ctx, input);
  ctx.log.debug({ op: op.name, ms: Math.round(performance.now() - started) }, 'operation done');
  return output as z.output<O>;
}
