import type { z } from 'zod';
import type { Actor, Ctx } from './context';
import { forbidden, fromZodError, invalidField } from './errors';
import { runRetryingConcurrentChanges } from './operation-retry';
import { recordPartnerActivity } from './partner-activity';
import { assertWorkspaceAccess } from './tenancy';
import { findMalformedText } from './input-text.rules';
import { assertRoleAllows, type OperationRole } from './role.rules';

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
  /**
   * Partner keys (an email-infrastructure provider's, `Actor.partnerName`) run only the operations
   * marked here, on every transport (403 `auth.partner_forbidden` otherwise): `true`, an operation
   * every key may call and partner keys too (executeOperation records each partner call of it in
   * partner_activity once it succeeds); `'only'`, an operation of partner keys alone (403
   * `auth.partner_key_required` for other keys), which records its calls itself, in its transaction.
   */
  partner?: true | 'only';
  /**
   * The least role the caller needs (role.rules.ts): `admin` for what changes the organization's
   * set-up, `owner` for what only owners do. READ_ONLY callers run queries only, whatever this says;
   * callers without a role (API keys not issued for a person) run everything (403 `auth.role_forbidden`).
   */
  role?: OperationRole;
  run(ctx: Ctx, input: z.output<I>): Promise<z.input<O>>;
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType, const K extends OperationKind>(
  op: Operation<I, O, K>,
): Operation<I, O, K> {
  return op;
}


/**
 * Whether the caller's kind of key may run the operation at all (see `Operation.partner`): the
 * one place partner keys are kept to the partner operations, and roles to what they may run
 * (`Operation.role`, role.rules.ts). Checked right after the text rule
 * and before the input is validated, so a partner key gets its 403 whatever else it sends.
 */
export function assertOperationAllowed(op: Pick<Operation, 'name' | 'partner' | 'kind' | 'role'>, actor: Actor): void {
  if (actor.partnerName !== undefined) {
    if (!op.partner) throw forbidden('auth.partner_forbidden', `a partner API key can only call the partner operations; ${op.name} is not one`);
  } else if (op.partner === 'only') {
    throw forbidden('auth.partner_key_required', `${op.name} is a partner operation: call it with a partner API key`);
  }
  // The caller's role (a person's, or a key issued for one): READ_ONLY queries only, MEMBER no admin operation.
  assertRoleAllows(op, actor);
}

/** Refuses input holding a string with a NUL or a lone surrogate (see input-text.rules). */
export function assertWellFormedText(input: unknown): void {
  const malformed = findMalformedText(input);
  if (malformed) throw invalidField(malformed.field, malformed.message);
}

/**
 * The one way every transport runs an operation: refuse malformed text, check the kind of key
 * may call it (assertOperationAllowed), validate the input with the operation's schema, check
 * the caller may touch the workspace, then run (again after a concurrent change: operation-retry.ts).
 */
export async function executeOperation<I extends z.ZodType, O extends z.ZodType>(options: {
  op: Operation<I, O, OperationKind>;
  ctx: Ctx;
  input: unknown;
}): Promise<z.output<O>> {
  assertWellFormedText(options.input);
  assertOperationAllowed(options.op, options.ctx.actor);
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
  assertOperationAllowed(op, ctx.actor);
  if (op.workspace !== 'none') {
    const workspaceId = (input as { workspace_id?: string }).workspace_id;
    if (workspaceId === undefined) {
      if (op.workspace === 'required') throw invalidField('workspace_id', 'is required');
    } else {
      await assertWorkspaceAccess({ ctx, workspaceId, permission: op.permission });
    }
  }
  const started = performance.now();
  const output = await runRetryingConcurrentChanges({ name: op.name, ctx, run: (attemptCtx) => op.run(attemptCtx, input) });
  if (op.partner === true && ctx.actor.partnerName !== undefined) {
    const workspaceId = (input as { workspace_id?: string }).workspace_id ?? null;
    await recordPartnerActivity({ db: ctx.db, actor: ctx.actor, operation: op.name, workspaceId });
  }
  ctx.log.debug({ op: op.name, ms: Math.round(performance.now() - started) }, 'operation done');
  return output as z.output<O>;
}
