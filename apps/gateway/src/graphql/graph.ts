// The graph a UI walks below an object an operation read (docs/api.md, "GraphQL graph"): Pothos
// Prisma types and relations, each column of the model a field (none restated here). Tenancy is
// enforced in this file only: a graph is entered from an entity in the workspace it was read in,
// and a relation between rows answers the child rows of the parent's workspace only.
import { getDatamodel } from '@outreach/db/pothos-types';
import { builder } from './builder';
import { scopeOf, type Parent } from './operation-field';

const models = getDatamodel().datamodel.models;
const SCALARS: Record<string, string> = { Int: 'Int', Float: 'Float', Decimal: 'Float', Boolean: 'Boolean', Json: 'JSON' };
type Row = Record<string, any>;
type Relations = Readonly<Record<string, { orderBy?: object }>>;
const refs = new Map<string, unknown>();

/** A model as an object type: its columns less `hide` (ids as ID, times as ISO text, enums as their names) and the `relations` listed. */
export function graphType(model: string, name: string, options: { hide?: readonly string[]; relations?: Relations; description: string }) {
  const columns = models[model]!.fields.filter((f) => f.kind !== 'object' && !options.hide?.includes(f.name));
  const ref = builder.prismaObject(model as never, {
    name,
    description: options.description,
    fields: (t: any) => ({
      ...Object.fromEntries(
        columns.map((f) => {
          const type = f.name === 'id' || f.name.endsWith('Id') ? 'ID' : (SCALARS[f.type] ?? 'String');
          const read = (row: Row) => (row[f.name] instanceof Date ? row[f.name].toISOString() : f.type === 'BigInt' && row[f.name] != null ? String(row[f.name]) : row[f.name]);
          return [f.name, t.field({ type: f.isList ? [type] : type, nullable: !f.isRequired, resolve: read })];
        }),
      ),
      ...Object.fromEntries(Object.entries(options.relations ?? {}).map(([relation, query]) => [relation, related(t, model, relation, query)])),
    }),
  } as never);
  refs.set(model, ref);
  return ref;
}

/** A to-many relation loaded with its parent's query, less any row of another workspace. */
function related(t: any, model: string, relation: string, query: { orderBy?: object }) {
  const target = models[model]!.fields.find((f) => f.name === relation)!;
  return t.field({
    type: [refs.get(target.type)],
    select: (_args: unknown, _ctx: unknown, nested: (query: object) => object) => ({ [relation]: nested(query) }),
    resolve: (parent: Row) => (parent[relation] as Row[]).filter((row) => row['workspaceId'] === parent['workspaceId']),
  });
}

/**
 * A relation from an entity (`on`) into the graph: the rows of `model` that `link` names, in the
 * workspace the entity was read in (none when it was not read through an operation).
 */
export function graphField(on: Parent, name: string, model: string, link: (parent: any) => Row, options: { orderBy: object; description: string }) {
  const delegate = model[0]!.toLowerCase() + model.slice(1);
  builder.objectField(on.ref, name, (t: any) =>
    t.prismaField({
      type: [refs.get(model)],
      description: options.description,
      resolve: (query: object, parent: object, _args: unknown, { ctx }: { ctx: { db: any } }) => {
        const workspaceId = scopeOf(parent);
        return workspaceId ? ctx.db[delegate].findMany({ ...query, where: { ...link(parent), workspaceId }, orderBy: options.orderBy }) : [];
      },
    }),
  );
}
