import { describe, expect, it } from 'vitest';
import { collectCustomVariables, customVariableKeys, customVariableName } from './custom-variables.rules';
import { planVariables } from './lead-variables.rules';

describe('custom variable names', () => {
  it('stores custom_<name> as <name>; custom_ alone stays', () => {
    expect(customVariableName('custom_tier')).toBe('tier');
    expect(customVariableName('tier')).toBe('tier');
    expect(customVariableName('custom_')).toBe('custom_');
    expect(customVariableName('customer')).toBe('customer');
  });

  it('lets the unprefixed key win over the prefixed one, in either order', () => {
    expect(collectCustomVariables([['tier', 'plain'], ['custom_tier', 'prefixed'], ['custom_region', 'EU']])).toEqual({ tier: 'plain', region: 'EU' });
    expect(collectCustomVariables([['custom_tier', 'prefixed'], ['tier', 'plain']])).toEqual({ tier: 'plain' });
  });

  it('answers each stored variable under both names, never over a built-in key or a stored variable of the prefixed name', () => {
    const keys = customVariableKeys({ stored: { tier: 'gold', status: 'forged', custom_x: 'legacy', x: 'new' }, builtIn: new Set(['status', 'email']) });
    expect(keys).toEqual({ tier: 'gold', custom_tier: 'gold', custom_status: 'forged', custom_x: 'legacy', x: 'new', custom_custom_x: 'legacy' });
  });

  it('keeps a variable named __proto__ a plain key', () => {
    const keys = customVariableKeys({ stored: JSON.parse('{"__proto__":"p"}'), builtIn: new Set() });
    expect(Object.getPrototypeOf(keys)).toBe(Object.prototype);
    expect(Object.keys(keys)).toEqual(['__proto__', 'custom___proto__']);
  });

  it('splits update variables into columns and custom variables by stored name', () => {
    expect(planVariables({ variables: { first_name: 'Ann', custom_tier: 'gold', custom_region: 'EU', region: 'Nordics' } })).toEqual({
      columns: { first_name: 'Ann' },
      custom: { tier: 'gold', region: 'Nordics' },
    });
  });
});
