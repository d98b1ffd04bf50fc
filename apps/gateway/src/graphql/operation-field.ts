// A GraphQL field is built from an operation by one helper, as a tRPC procedure is by
// procedureFor: its arguments and type come from the operation's zod schemas
// (zod-to-graphql.ts), and every read and write runs through executeOperation.
import { executeOperation, invalidField, ObjectId, toDomainError, type Ctx, type Operation } from '@outreach/core';
import { builder, Node, nodeTypes, type GraphqlContext } from './builder';
import { argsOf, decode, FULL, inputObject, keyOf, objectRef, outputType, placeOf, rowsOf, specOf, toVendor, type Naming, type Spec } from './zod-to-graphql';

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

const callers = new WeakMap<object, Ctx>();
/**
 * An object answered by a mutation that changed who is calling (sign-in: the session it started):
 * the operations of its fields run as that caller, not as the request's.
 */
export function answeredAs<T extends object>(value: T, ctx: Ctx): T {
  callers.set(value, ctx);
  return value;
}

/** Runs an operation for a resolver, scoping what it answers to its workspace; failures go to yoga's maskError as they are. */
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
/** An object type read again by id through an operation: lookups, references, mutation results, `node`. */
export interface Entity<T extends object = any> extends Parent<T> {
  /** A workspace: read by its own id (`workspace(id)`), a node of itself only. */
  workspace?: boolean;
  load(ctx: Ctx, workspaceId: string, id: string): Promise<T | null>;
  /** What a lookup or a reference answers: the whole record, or a stub read in full on demand (`probe`). */
  lookup(ctx: Ctx, workspaceId: string, id: string): Promise<T | null>;
}

const loaded = new WeakMap<Ctx, Map<string, Promise<unknown>>>();
const nodes: Entity[] = [];
/** Loads are shared within a request (a page of leads asks for each campaign once) until a mutation runs. */
export function entity<T extends object>(
  ref: any,
  options: {
    bind?: Bindings<T>;
    load: (ctx: Ctx, workspaceId: string, id: string) => Promise<T | null | undefined>;
    /**
     * A cheaper operation answering whether the workspace has the object: a lookup then answers
     * a stub of what it read, and `load` runs only when a field outside it is asked for (a
     * campaign's variation stats need no counters).
     */
    probe?: (ctx: Ctx, workspaceId: string, id: string) => Promise<Partial<T> | null>;
    /** The type implements Node: `node(workspaceId, id)` tries its lookup. */
    node?: boolean;
    workspace?: boolean;
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
  const lookup = probe
    ? (ctx: Ctx, workspaceId: string, id: string) =>
        memoized(ctx, 'probe', workspaceId, id, async () => {
          const found = await probe(ctx, workspaceId, id);
          if (!found) return null;
          const stub = { ...found, [FULL]: () => load(ctx, workspaceId, id) };
          mark(stub, workspaceId.toLowerCase());
          return stub;
        }) as Promise<T | null>
    : load;
  const result: Entity<T> = { ref, bind: options.bind ?? {}, workspace: options.workspace, load, lookup };
  if (options.node) {
    nodeTypes.refs.add(ref);
    nodes.push(result);
  }
  return result;
}

/** A read's value, or null when it fails with this domain error kind or code. */
export const nullWhen = <T>(what: string, read: Promise<T>): Promise<T | null> =>
  read.catch((error) => {
    const domain = toDomainError(error);
    if (domain?.kind === what || domain?.code === what) return null;
    throw error;
  });

/** The row with this `_id` of a skip/limit listing that has no id filter, found page by page. */
export async function findListed(ctx: Ctx, op: Op, input: Input, id: string, rows: (output: any) => { _id: string }[] = (output) => output): Promise<any> {
  for (let skip = 0; ; skip += 1000) {
    const page = rows(await run(ctx, op, { ...input, skip, limit: 1000 }));
    const found = page.find((row) => row._id === id.toLowerCase());
    if (found || page.length < 1000) return found;
  }
}

/** The entity of the workspace with this id, whatever its type: ids are ObjectIds, unique across types. */
async function readNode(ctx: Ctx, workspaceId: string, id: string): Promise<object | null> {
  const parsed = ObjectId.safeParse(id);
  if (!parsed.success) throw invalidField('id', parsed.error.issues[0]!.message);
  for (const target of nodes) {
    if (target.workspace && parsed.data !== workspaceId.toLowerCase()) continue;
    // A type a client key may not read holds no node for it.
    const found = await nullWhen('auth.permission_denied', target.lookup(ctx, workspaceId, parsed.data));
    if (found) {
      nodeTypes.of.set(found, target.ref.name);
      return found;
    }
  }
  return null;
}

/** The object type of an operation's rows (the elements of an array, of a record or of `data`). */
export const typeOf = (op: Op, type?: string, naming: Naming = {}, key?: string) => objectRef(rowsOf(op.output, key).item, placeOf(op.name, 'output', naming, type));

export interface FieldOptions extends Naming {
  /** A field of this type, run in the workspace the object was read in; else a root field. */
  on?: Parent;
  bind?: Bindings;
  /** Inputs this field sets itself (not arguments). */
  fixed?: Input;
  /** Answer one key of the output (a connection: the key holding the rows). */
  result?: string;
  /** Name of the result's object type (default: the operation's name in PascalCase). */
  type?: string;
  /** Answer the entity the operation changed, read again through its own operation. */
  returns?: { entity: Entity; id: (output: any, input: Input) => unknown };
  description?: string;
}

const register = (name: string, on: { ref: any } | undefined, kind: 'query' | 'mutation', field: (t: any) => unknown) =>
  on ? builder.objectField(on.ref, name, field as never) : kind === 'query' ? builder.queryField(name, field as never) : builder.mutationField(name, field as never);

/**
 * Registers the field `name` of an operation (on the root, or on `options.on`): its arguments are
 * the operation's inputs less those it fills in itself (`fixed`, the parent's workspace and
 * bindings, `skip`); `vendor` turns a call's arguments into the operation's input.
 */
export function defineField(name: string, op: Op, options: FieldOptions, skip: string[], make: (t: any, args: unknown, vendor: (parent: any, args: Input) => Input) => unknown): void {
  const input = inputObject(op.input);
  const bindings: Bindings = { ...options.on?.bind, ...options.bind };
  const skipped = new Set([...skip, ...(options.on ? ['workspace_id'] : []), ...Object.keys(bindings), ...Object.keys(options.fixed ?? {})]);
  // A field of a type read in a workspace runs in that workspace; one of a type outside any
  // workspace (the viewer) runs an operation that takes none.
  const scoped = Object.hasOwn((input as any)._zod.def.shape, 'workspace_id');
  const parentInputs = (parent: any): Input =>
    options.on ? { ...(scoped ? { workspace_id: scopeOf(parent) } : {}), ...Object.fromEntries(Object.entries(bindings).map(([key, read]) => [key, read(parent)])) } : {};
  const vendor = (parent: any, args: Input) => ({ ...toVendor(input, args, options), ...options.fixed, ...parentInputs(parent) });
  // A field answering an entity needs the workspace to read it back.
  register(name, options.on, op.kind, (t) => make(t, argsOf(t, input, placeOf(op.name, 'input', options), skipped, new Set(options.returns ? ['workspace_id'] : [])), vendor));
}

/** Builds the field `name` from an operation: arguments from its input, type from its output. */
export function operationField(name: string, op: Op, options: FieldOptions = {}): void {
  const spec: Spec = options.returns
    ? { type: options.returns.entity.ref, nullable: true, kind: 'object' }
    : specOf(options.result ? keyOf(op.output, options.result) : op.output, placeOf(op.name, 'output', options, options.type));
  defineField(name, op, options, [], (t, args, vendor) =>
    t.field({
      ...outputType(spec),
      description: options.description ?? op.description ?? op.summary,
      args,
      resolve: async (parent: any, given: Input, { ctx }: GraphqlContext) => {
        const input = vendor(parent, given);
        const output = await run((parent && callers.get(parent)) ?? ctx, op, input);
        if (op.kind === 'mutation') loaded.delete(ctx);
        if (!options.returns) return decode(spec, options.result ? output[options.result] : output);
        const id = options.returns.id(output, input);
        return id ? options.returns.entity.load(ctx, String(input['workspace_id'] ?? ''), String(id)) : null;
      },
    }),
  );
}

/**
 * A field answering an entity (or any Node) read by id, null when the workspace it is read in
 * has none; a workspace the key does not reach is FORBIDDEN. On the root it takes `workspaceId`
 * and `id` (a workspace: `id`); on a type (`on`), the id is the one `id` reads from the parent,
 * in the workspace the parent was read in, so a reference never crosses workspaces.
 */
export function lookupField(name: string, target: Entity | typeof Node, description: string, on?: { ref: any }, id?: (parent: any) => unknown): void {
  const read = target === Node ? readNode : (target as Entity).lookup;
  register(name, on, 'query', (t) =>
    t.field({
      type: target === Node ? Node : (target as Entity).ref,
      nullable: true,
      description,
      args: on ? {} : { ...((target as Entity).workspace ? {} : { workspaceId: t.arg.id({ required: true }) }), id: t.arg.id({ required: true }) },
      resolve: async (parent: any, args: Input, { ctx }: GraphqlContext) => {
        // A probed stub (`entity`'s `probe`) holds only its id: the reference is read from the full record.
        const source = on && id?.(parent) === undefined && parent[FULL] ? ((await parent[FULL]()) ?? parent) : parent;
        const [workspaceId, key] = on ? [scopeOf(parent), id?.(source)] : [String(args['workspaceId'] ?? ''), args['id']];
        return workspaceId !== undefined && key ? read(ctx, workspaceId, String(key)) : null;
      },
    }),
  );
}
