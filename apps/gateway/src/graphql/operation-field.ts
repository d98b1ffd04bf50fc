// A GraphQL field is built from an operation by one helper, as a tRPC procedure is by
// procedureFor: its arguments and its type come from the operation's zod schemas
// (zod-to-graphql.ts), and every read and write runs through executeOperation.
import { executeOperation, type Ctx, type Operation } from '@outreach/core';
import { builder } from './builder';
import { argsOf, decode, FULL, inputObject, keyOf, objectRef, outputType, placeOf, rowsOf, specOf, toVendor, type Names, type Naming, type Spec } from './zod-to-graphql';

export type Op = Operation<any, any, any>;
export type Input = Record<string, unknown>;
/** Inputs a field takes from the object it is a field of: vendor key → value. */
export type Bindings<T = any> = Readonly<Record<string, (parent: T) => unknown>>;

const scopes = new WeakMap<object, string>();
/** The workspace an object was read in: the operations of its fields and references run there. */
export const scopeOf = (value: object): string | undefined => scopes.get(value);
function mark(value: unknown, workspaceId: string): void {
  if (!value || typeof value !== 'object' || scopes.has(value)) return;
  scopes.set(value, workspaceId);
  for (const inner of Object.values(value)) mark(inner, workspaceId);
}

/**
 * Runs an operation for a resolver; what it answers is scoped to the workspace it ran in.
 * Failures are thrown as they are: yoga's maskError (yoga.ts) answers them.
 */
export async function run<T = any>(ctx: Ctx, op: Op, input: Input): Promise<T> {
  const output = await executeOperation({ op, ctx, input });
  if (typeof input['workspace_id'] === 'string') mark(output, input['workspace_id'].toLowerCase());
  return output;
}

/** An object type whose fields run operations: `bind` gives them inputs from the object. */
export interface Parent<T extends object = any> {
  ref: any;
  bind: Bindings<T>;
}
/** An object type that can be read again by id through an operation (lookups, mutation results, references). */
export interface Entity<T extends object = any> extends Parent<T> {
  load(ctx: Ctx, workspaceId: string, id: string): Promise<T | null>;
  /** What a lookup or a reference answers: the whole record, or a stub read in full on demand (`probe`). */
  lookup(ctx: Ctx, workspaceId: string, id: string): Promise<T | null>;
}

const loaded = new WeakMap<Ctx, Map<string, Promise<unknown>>>();
/** Loads are shared within a request (a page of leads asks for each campaign once) until a mutation runs. */
export function entity<T extends object>(
  ref: any,
  options: {
    bind?: Bindings<T>;
    load: (ctx: Ctx, workspaceId: string, id: string) => Promise<T | null | undefined>;
    /**
     * A cheaper operation answering whether the workspace has the object: a lookup then answers
     * a stub holding what the probe read, and `load` runs only when a field outside it is asked
     * for (a campaign's variation stats need no counters).
     */
    probe?: (ctx: Ctx, workspaceId: string, id: string) => Promise<Partial<T> | null>;
  },
): Entity<T> {
  const memoized = (ctx: Ctx, kind: string, workspaceId: string, id: string, read: () => Promise<unknown>) => {
    let memo = loaded.get(ctx);
    if (!memo) loaded.set(ctx, (memo = new Map()));
    const key = `${kind}:${ref.name}:${workspaceId}:${id.toLowerCase()}`;
    if (!memo.has(key)) memo.set(key, read().then((found) => found ?? null));
    return memo.get(key)!;
  };
  const load = (ctx: Ctx, workspaceId: string, id: string) => memoized(ctx, 'load', workspaceId, id, () => options.load(ctx, workspaceId, id)) as Promise<T | null>;
  const probe = options.probe;
  return {
    ref,
    bind: options.bind ?? {},
    load,
    lookup: probe
      ? (ctx, workspaceId, id) =>
          memoized(ctx, 'probe', workspaceId, id, async () => {
            const found = await probe(ctx, workspaceId, id);
            if (!found) return null;
            const stub = { ...found, [FULL]: () => load(ctx, workspaceId, id) };
            mark(stub, workspaceId.toLowerCase());
            return stub;
          }) as Promise<T | null>
      : load,
  };
}

/** The object type of an operation's rows (the elements of an array, of a record or of `data`). */
export const typeOf = (op: Op, type?: string, naming: Naming = {}, key?: string) =>
  objectRef(rowsOf(op.output, key).item, placeOf(op.name, 'output', naming, type));

export interface FieldOptions extends Naming {
  /** A field of this type, run in the workspace the object was read in; else a root field. */
  on?: Parent;
  bind?: Bindings;
  /** Inputs this field sets itself (not arguments). */
  fixed?: Input;
  /** Answer one key of the output. */
  result?: string;
  /** Name of the result's object type (default: the operation's name in PascalCase). */
  type?: string;
  /** Answer the entity the operation changed, read again through its own operation. */
  returns?: { entity: Entity; id: (output: any, input: Input) => unknown };
  description?: string;
}

/** Builds the field `name` from an operation: arguments from its input, type from its output. */
export function operationField(name: string, op: Op, options: FieldOptions = {}): void {
  const naming: Naming = options;
  const input = inputObject(op.input);
  const bindings: Bindings = { ...options.on?.bind, ...options.bind };
  const skip = new Set([...(options.on ? ['workspace_id'] : []), ...Object.keys(bindings), ...Object.keys(options.fixed ?? {})]);
  const spec: Spec = options.returns
    ? { type: options.returns.entity.ref, nullable: true, kind: 'object' }
    : specOf(options.result ? keyOf(op.output, options.result) : op.output, placeOf(op.name, 'output', naming, options.type));
  const field = (t: any) =>
    t.field({
      ...outputType(spec),
      description: options.description ?? op.description ?? op.summary,
      // A field answering an entity needs the workspace to read it back.
      args: argsOf(t, input, placeOf(op.name, 'input', naming), skip, new Set(options.returns ? ['workspace_id'] : [])),
      resolve: async (parent: any, args: Input, { ctx }: { ctx: Ctx }) => {
        const vendor = { ...toVendor(input, args, naming), ...options.fixed, ...bound(parent, options.on, bindings) };
        const output = await run(ctx, op, vendor);
        if (op.kind === 'mutation') loaded.delete(ctx);
        if (options.returns) {
          const id = options.returns.id(output, vendor);
          return id ? options.returns.entity.load(ctx, String(vendor['workspace_id'] ?? ''), String(id)) : null;
        }
        return decode(spec, options.result ? output[options.result] : output);
      },
    });
  if (options.on) builder.objectField(options.on.ref, name, field);
  else if (op.kind === 'query') builder.queryField(name, field);
  else builder.mutationField(name, field);
}

/** The inputs a field of `parent` takes from it: its workspace (scope) and the bound keys. */
export function bound(parent: any, on: Parent | undefined, bindings: Bindings): Input {
  if (!on) return {};
  return { workspace_id: scopeOf(parent), ...Object.fromEntries(Object.entries(bindings).map(([key, read]) => [key, read(parent)])) };
}

/** A root lookup `name(workspaceId, id)` (or `name(id)` for a workspace): null when the workspace has no such object. */
export function lookupField(name: string, target: Entity, description: string, options: { workspace?: boolean } = {}): void {
  builder.queryField(name, (t) =>
    t.field({
      type: target.ref,
      nullable: true,
      description,
      args: { ...(options.workspace === false ? {} : { workspaceId: t.arg.id({ required: true }) }), id: t.arg.id({ required: true }) },
      resolve: (_root, args, { ctx }) => target.lookup(ctx, String(args.workspaceId ?? ''), String(args.id)),
    }),
  );
}

/**
 * A field of `on` naming another entity: read through that entity's operation in the
 * workspace `on` was read in, so a reference never crosses workspaces.
 */
export function referenceField(on: { ref: any }, name: string, target: Entity, id: (parent: any) => unknown, description: string): void {
  builder.objectField(on.ref, name, (t: any) =>
    t.field({
      type: target.ref,
      nullable: true,
      description,
      resolve: (parent: any, _args: unknown, { ctx }: { ctx: Ctx }) => {
        const workspaceId = scopeOf(parent);
        const key = id(parent);
        return workspaceId && key ? target.lookup(ctx, workspaceId, String(key)) : null;
      },
    }),
  );
}

export type { Names };
