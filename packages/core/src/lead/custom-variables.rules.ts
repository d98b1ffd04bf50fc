// A lead's custom variables have two names: their own (`tier`) and the vendor's prefixed one
// (`custom_tier`). Reads answer both; writes accept both and store the own name.

export const CUSTOM_PREFIX = 'custom_';

/** The stored name of a custom-variable key of a write: `custom_tier` is `tier` (`custom_` alone stays). */
export function customVariableName(key: string): string {
  return key.startsWith(CUSTOM_PREFIX) && key.length > CUSTOM_PREFIX.length ? key.slice(CUSTOM_PREFIX.length) : key;
}

/** Sets a plain own key, even one named __proto__. */
export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // Only __proto__ needs defineProperty; on any other key it is a plain assignment, and
  // defineProperty would cost an upload of 10,000 leads several milliseconds.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * The custom variables of one write by stored name. When two keys name the same variable
 * (`tier` and `custom_tier`), the unprefixed one wins, whatever their order.
 */
export function collectCustomVariables(entries: readonly (readonly [string, string])[]): Record<string, string> {
  // Prefixed keys first, then plain ones over them. Index loops: this runs for every lead of
  // an upload, and the iterator-and-spread form cost several microseconds a lead.
  const out: Record<string, string> = {};
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i]!;
    const name = customVariableName(key);
    if (name !== key) setKey(out, name, value);
  }
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i]!;
    if (customVariableName(key) === key) setKey(out, key, value);
  }
  return out;
}

/**
 * What a lead read answers for its stored custom variables: each under its own name (unless a
 * built-in key has it) and under `custom_<name>` (unless a stored variable is named that).
 */
export function customVariableKeys(options: { stored: Readonly<Record<string, unknown>>; builtIn: ReadonlySet<string> }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const entries = Object.entries(options.stored);
  for (const [name, value] of entries) if (!options.builtIn.has(name)) setKey(out, name, value);
  for (const [name, value] of entries) {
    const prefixed = `${CUSTOM_PREFIX}${name}`;
    if (!Object.hasOwn(options.stored, prefixed) && !options.builtIn.has(prefixed)) setKey(out, prefixed, value);
  }
  return out;
}
