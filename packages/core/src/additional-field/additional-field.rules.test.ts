import { describe, expect, it } from 'vitest';
import { fieldNameProblem, normalizeFieldName } from './additional-field.rules';

describe('normalizeFieldName', () => {
  it('trims and turns each run of whitespace into one underscore', () => {
    expect(normalizeFieldName('  Deal   size ')).toBe('Deal_size');
    expect(normalizeFieldName('Region\tcode')).toBe('Region_code');
    expect(normalizeFieldName('already_fine')).toBe('already_fine');
  });
});

describe('fieldNameProblem', () => {
  it('accepts names of a letter then letters, digits and underscores, up to 64', () => {
    expect(fieldNameProblem('Deal_size')).toBeNull();
    expect(fieldNameProblem(`a${'b'.repeat(63)}`)).toBeNull();
  });

  it('refuses other shapes and built-in lead fields in any case', () => {
    expect(fieldNameProblem(`a${'b'.repeat(64)}`)).toMatch(/64 characters/);
    expect(fieldNameProblem('1st_touch')).toMatch(/start with a letter/);
    expect(fieldNameProblem('deal-size')).toMatch(/start with a letter/);
    expect(fieldNameProblem('')).toMatch(/start with a letter/);
    expect(fieldNameProblem('First_Name')).toBe('must not be a built-in lead field (first_name)');
    expect(fieldNameProblem('EMAIL')).toMatch(/built-in/);
  });
});
