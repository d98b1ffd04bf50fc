// The one mapping from core's zod schemas to GraphQL types (docs/api.md, "GraphQL schema", has
// the table): objects, scalars, enums, the vendor's 0/1 and yes/no flags as Boolean, lists and
// JSON for the rest; keys in camelCase unless the operation's `names` say otherwise.
import { z } from 'zod';
import { builder, Node, nodeTypes } from './builder';

/** Vendor key → GraphQL name; `'*'` names the JSON field holding an object's catch-all keys. */
export type Names = Readonly<Record<string, string>>;
export interface Naming {
  names?: Names;
  /** Keys left out of the output types built for the operation (`secret`). */
  hide?: readonly string[];
  /** Vendor key → name of the object type of its value (`Input` is appended for input types). */
  types?: Names;
}
type Dir = 'input' | 'output';
type Schema = z.core.$ZodType;
type Kind = 'object' | 'list' | 'scalar' | 'enum' | 'yesno' | 'zeroOne' | 'const' | 'json';
interface Peeled {
  core: Schema;
  kind: Kind;
  optional: boolean;
  nullable: boolean;
  description?: string;
  values: readonly (string | number | boolean | null)[];
}
/** Where a type is built: `base` is the type name prefix (the operation's name, or the type asked for). */
interface Place {
  dir: Dir;
  base: string;
  path: string[];
  naming: Naming;
  domain: string;
}
export interface Spec {
  type: any;
  nullable: boolean;
  items?: boolean;
  kind: Kind | 'empty';
}

const def = (s: Schema) => (s as any)._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** Strips wrappers and pipes (a pipe is read on its input side, unless that side is a transform). */
export function peel(schema: Schema, dir: Dir): Peeled {
  let s = schema;
  let optional = false;
  let nullable = false;
  let description: string | undefined;
  for (;;) {
    description ??= z.globalRegistry.get(s as z.ZodType)?.description;
    const d = def(s);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault' || d.type === 'catch') optional = true;
    if (d.type === 'nullable') nullable = true;
    if (WRAPPERS.has(d.type)) s = d.innerType;
    else if (d.type === 'pipe') s = def(d.in).type === 'transform' ? d.out : d.in;
    else if (d.type === 'lazy') s = d.getter();
    else break;
  }
  const d = def(s);
  const literals = (options: Schema[]): (string | number | boolean | null)[] | null =>
    options.every((o) => def(o).type === 'literal' || def(o).type === 'enum') ? options.flatMap((o) => peel(o, dir).values) : null;
  const values: (string | number | boolean | null)[] =
    d.type === 'enum' ? Object.values(d.entries) : d.type === 'literal' ? d.values : d.type === 'union' ? (literals(d.options) ?? []) : [];
  const sorted = [...values].sort().join('|');
  let kind: Kind;
  if (d.type === 'object') kind = 'object';
  else if (d.type === 'array') kind = 'list';
  else if (['string', 'number', 'boolean', 'bigint'].includes(d.type)) kind = 'scalar';
  else if (values.length === 1) kind = 'const';
  else if (sorted === 'no|yes') kind = 'yesno';
  else if (sorted === '0|1') kind = 'zeroOne';
  else if (values.length > 1 && values.every((v) => typeof v === 'string' && /^[_A-Za-z][_0-9A-Za-z]*$/.test(v))) kind = 'enum';
  else if (d.type === 'union' && dir === 'input') {
    const first = peel(d.options[0], dir);
    return { ...first, optional: optional || first.optional, nullable, description: description ?? first.description };
  } else kind = 'json';
  return { core: s, kind, optional, nullable, description, values };
}

const pascal = (text: string) => text.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
/** `first_name` → firstName, `_id` → id, a leading window last (`7d_bounce_rate` → bounceRate7d); an override from `names` wins. */
export const fieldName = (key: string, naming: Naming) =>
  naming.names?.[key] ?? key.replace(/^(\d+[a-z]*)_(.+)$/, '$2_$1').replace(/^_+/, '').replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const isIdKey = (key: string) => /^_?id$|_id$/.test(key);
const isIdsKey = (key: string) => /^ids$|_ids$/.test(key);

const taken = new Map<string, unknown>();
/** A type name not used by another schema: the wanted one, or it with 2, 3, … appended. */
function uniqueName(wanted: string, owner: unknown): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? wanted : `${wanted}${n}`;
    if (!taken.has(name) || taken.get(name) === owner) {
      taken.set(name, owner);
      return name;
    }
  }
}

const objectRefs = { input: new Map<Schema, any>(), output: new Map<Schema, any>() };
const enumRefs = new Map<string, any>();

/** One enum per domain, key and values: `status` with the campaign statuses is CampaignStatus in every campaign type. */
function enumRef(p: Peeled, place: Place): any {
  const values = p.values as string[];
  const key = place.path[place.path.length - 1] ?? 'value';
  const owner = `${place.domain}.${key}:${values.join('|')}`;
  if (enumRefs.has(owner)) return enumRefs.get(owner);
  const domain = pascal(place.domain);
  const label = pascal(fieldName(key, place.naming));
  const wanted = z.globalRegistry.get(p.core as z.ZodType)?.id ?? (label.startsWith(domain) ? label : `${domain}${label}`);
  const name = uniqueName(taken.has(wanted) && place.dir === 'input' ? `${wanted}Input` : wanted, owner);
  const ref = builder.enumType(name, { values });
  enumRefs.set(owner, ref);
  return ref;
}

/** The visible keys of an object schema with their GraphQL names, in the schema's order. */
export function fieldsOf(object: Schema, naming: Naming, dir: Dir) {
  const d = def(object);
  const fields = Object.entries(d.shape as Record<string, Schema>)
    .filter(([key]) => dir === 'input' || !naming.hide?.includes(key))
    .map(([key, schema]) => ({ key, name: fieldName(key, naming), schema, peeled: peel(schema, dir) }))
    .filter((f) => f.peeled.kind !== 'const');
  const names = new Set<string>();
  for (const f of fields) {
    if (names.has(f.name)) throw new Error(`GraphQL field ${f.name} would name two keys of one object; give one a name in \`names\``);
    names.add(f.name);
  }
  return { fields, catchall: d.catchall && def(d.catchall).type !== 'never' ? fieldName('*', { names: { '*': 'extra', ...naming.names } }) : null };
}

/** The GraphQL type of a schema at a place (a field of an object, an argument, a result). */
export function specOf(schema: Schema, place: Place): Spec {
  const p = peel(schema, place.dir);
  const nullable = p.optional || p.nullable;
  const key = place.path[place.path.length - 1] ?? '';
  switch (p.kind) {
    case 'scalar': {
      const t = def(p.core).type;
      const type = t === 'boolean' ? 'Boolean' : t === 'number' ? ((p.core as any).isInt ? 'Int' : 'Float') : t === 'bigint' ? 'String' : isIdKey(key) ? 'ID' : 'String';
      return { type, nullable, kind: p.kind };
    }
    case 'yesno':
    case 'zeroOne':
      return { type: 'Boolean', nullable, kind: p.kind };
    case 'enum':
      return { type: enumRef(p, place), nullable, kind: p.kind };
    case 'list': {
      const element = peel(def(p.core).element, place.dir);
      const item = isIdsKey(key) && element.kind === 'scalar' && def(element.core).type === 'string' ? { type: 'ID', nullable: false, kind: 'scalar' as const } : specOf(def(p.core).element, place);
      if (Array.isArray(item.type) || item.kind === 'empty') return { type: 'JSON', nullable, kind: 'json' };
      return { type: [item.type], nullable, items: item.nullable, kind: p.kind };
    }
    case 'object': {
      const ref = objectRef(p.core, place);
      return ref ? { type: ref, nullable, kind: p.kind } : { type: 'Boolean', nullable, kind: 'empty' };
    }
    default:
      return { type: 'JSON', nullable, kind: p.kind };
  }
}

/** The object or input type of an object schema, built once per schema and direction (null when it has no field). */
export function objectRef(object: Schema, place: Place): any {
  const cache = objectRefs[place.dir];
  if (cache.has(object)) return cache.get(object);
  const { fields, catchall } = fieldsOf(object, place.naming, place.dir);
  if (fields.length === 0 && !catchall) {
    cache.set(object, null);
    return null;
  }
  const own = z.globalRegistry.get(object as z.ZodType);
  const given = place.naming.types?.[place.path.at(-1) ?? ''];
  const named = given && (place.dir === 'input' && !given.endsWith('Input') ? `${given}Input` : given);
  const name = uniqueName(own?.id ?? named ?? `${place.base}${place.path.map((key) => pascal(fieldName(key, place.naming))).join('')}`, object);
  const at = (key: string) => ({ ...place, base: name, path: [key] });
  if (place.dir === 'input') {
    const ref = builder.inputRef<any>(name);
    cache.set(object, ref);
    return ref.implement({
      description: own?.description,
      fields: (t: any) => Object.fromEntries(fields.map((f) => [f.name, t.field({ ...argType(specOf(f.schema, at(f.key))), description: f.peeled.description })])),
    });
  }
  const ref = builder.objectRef<any>(name);
  cache.set(object, ref);
  // Output types are built at once, so their enums take names before any argument's.
  const specs = fields.map((f) => specOf(f.schema, at(f.key)));
  return ref.implement({
    description: own?.description,
    interfaces: () => (nodeTypes.refs.has(ref) ? [Node] : []),
    fields: (t: any) => ({
      ...Object.fromEntries(fields.map((f, i) => [f.name, outputField(t, specs[i]!, (parent) => parent[f.key], f.peeled.description)])),
      ...(catchall && { [catchall]: t.field({ type: 'JSON', description: 'Keys beyond the fields above', resolve: (parent: any) => extras(parent, object) }) }),
    }),
  });
}

const extras = (value: Record<string, unknown>, object: Schema) => Object.fromEntries(Object.entries(value).filter(([key]) => !(key in def(object).shape)));

/** Pothos type and nullability of an argument or input field, and of an output field. */
export const argType = (spec: Spec) => ({ type: spec.type, required: spec.items === undefined ? !spec.nullable : { list: !spec.nullable, items: !spec.items } });
export const outputType = (spec: Spec) => ({ type: spec.type, nullable: spec.items === undefined ? spec.nullable : { list: spec.nullable, items: spec.items } });

/** On an object holding part of its record (a lookup's stub, operation-field.ts): reads the whole record, once per request. */
export const FULL = Symbol('full record');

/** A field of an output type, its value read by `read` and decoded per the spec. */
function outputField(t: any, spec: Spec, read: (parent: any) => unknown, description?: string) {
  return t.field({
    ...outputType(spec),
    description,
    resolve: (parent: any) => {
      const value = read(parent);
      if (value === undefined && parent[FULL]) return (parent[FULL]() as Promise<any>).then((full) => decode(spec, full ? read(full) : null));
      return decode(spec, value);
    },
  });
}

/** An operation's value as GraphQL answers it: 0/1 and yes/no flags as booleans, an empty object as true. */
export function decode(spec: Spec, value: unknown): unknown {
  if (spec.kind === 'empty') return true;
  if (value === undefined || value === null) return null;
  if (spec.kind === 'zeroOne') return value === 1;
  if (spec.kind === 'yesno') return value === 'yes';
  return value;
}

/**
 * GraphQL arguments (or input object values) back to the operation's vendor keys: names
 * reversed, flags turned back into yes/no or 0/1, one-value literals filled in, and a
 * null dropped unless the schema accepts null (so it reaches zod as an absent key).
 */
export function toVendor(object: Schema, value: Record<string, unknown>, naming: Naming): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(def(object).shape as Record<string, Schema>)) {
    const p = peel(schema, 'input');
    if (p.kind === 'const') out[key] = p.values[0];
    const given = value[fieldName(key, naming)];
    if (p.kind === 'const' || given === undefined || (given === null && !p.nullable)) continue;
    out[key] = convert(p, given, naming);
  }
  return out;
}

function convert(p: Peeled, value: unknown, naming: Naming): unknown {
  if (value === null) return null;
  if (p.kind === 'yesno') return value ? 'yes' : 'no';
  if (p.kind === 'zeroOne') return value ? 1 : 0;
  if (p.kind === 'object') return toVendor(p.core, value as Record<string, unknown>, naming);
  if (p.kind === 'list' && Array.isArray(value)) return value.map((v) => convert(peel(def(p.core).element, 'input'), v, naming));
  return value;
}

/** Arguments of a field: the input object's visible keys, less those the field fills in. */
export function argsOf(t: any, object: Schema, place: Place, skip: ReadonlySet<string>, requiredKeys: ReadonlySet<string> = new Set()) {
  return Object.fromEntries(
    fieldsOf(object, place.naming, 'input')
      .fields.filter((f) => !skip.has(f.key))
      .map((f) => {
        const { type, required } = argType(specOf(f.schema, { ...place, path: [f.key] }));
        return [f.name, t.arg({ type, required: requiredKeys.has(f.key) || required, description: f.peeled.description })];
      }),
  );
}

/** Where an operation's types are named from: `campaign.listAll` → CampaignListAll / CampaignListAllInput. */
export const placeOf = (opName: string, dir: Dir, naming: Naming, type?: string): Place => ({
  dir,
  base: type ?? `${pascal(opName)}${dir === 'input' ? 'Input' : ''}`,
  path: [],
  naming,
  domain: opName.split('.')[0]!,
});

/** The root object schema of an operation's input (`{}` defaults peeled). */
export const inputObject = (schema: Schema): Schema => peel(schema, 'input').core;

/** The rows of a list-like output (or of its `key`): an array, a record keyed by position, or `{ page_trail, data }`. */
export function rowsOf(schema: Schema, key?: string): { item: Schema; read: (output: any) => any[] } {
  if (key) {
    const inner = rowsOf(keyOf(schema, key));
    return { item: inner.item, read: (o) => inner.read(o[key]) };
  }
  const p = peel(schema, 'output').core;
  const d = def(p);
  if (d.type === 'array') return { item: peel(d.element, 'output').core, read: (o) => o };
  if (d.type === 'record') return { item: peel(d.valueType, 'output').core, read: (o) => Object.keys(o).sort((a, b) => Number(a) - Number(b)).map((k) => o[k]) };
  if (d.type === 'object' && d.shape.data) return { item: rowsOf(d.shape.data).item, read: (o) => o.data };
  return { item: p, read: (o) => [o] };
}

/** The shape of one key of an object schema. */
export const keyOf = (schema: Schema, key: string): Schema => def(peel(schema, 'output').core).shape[key];
