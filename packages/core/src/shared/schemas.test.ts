import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromZodError } from './errors';
import { BoolInput, MAX_PAGE_LIMIT, PageLimit, SkipLimit, pageLimit } from './schemas';

describe('BoolInput', () => {
  const Flags = z.object({ flag: BoolInput.optional() });
  const read = (flag: unknown) => Flags.parse({ flag }).flag;

  it('reads true/false, "yes"/"no", 1/0 and "true"/"false"/"1"/"0", case-insensitively, as booleans', () => {
    for (const yes of [true, 1, 'yes', 'YES', 'Yes', 'true', 'True', 'TRUE', '1', ' yes ']) expect([yes, read(yes)]).toEqual([yes, true]);
    for (const no of [false, 0, 'no', 'NO', 'No', 'false', 'False', 'FALSE', '0', ' no ']) expect([no, read(no)]).toEqual([no, false]);
  });

  it('refuses anything else with a 400 naming the field and the accepted forms', () => {
    for (const bad of ['maybe', '', 'on', 2, -1, 0.5, null, {}, ['yes']]) {
      const parsed = Flags.safeParse({ flag: bad });
      expect(parsed.success).toBe(false);
      const error = fromZodError(parsed.error!);
      expect([bad, error.fieldErrors]).toEqual([bad, [{ field: 'flag', message: 'must be true or false ("yes"/"no", 1/0 and "true"/"false" are accepted too)' }]]);
    }
  });

  it('documents the accepted forms in the JSON Schema of the input, a boolean first', () => {
    const schema = z.toJSONSchema(Flags, { io: 'input', unrepresentable: 'any' }) as any;
    const forms = schema.properties.flag.anyOf;
    expect(forms[0]).toEqual({ type: 'boolean' });
    expect(forms[1]).toMatchObject({ enum: [0, 1] });
    expect(forms[2]).toMatchObject({ type: 'string', pattern: expect.stringContaining('yes|no') });
  });
});

describe('pageLimit', () => {
  const Page = z.object(SkipLimit);

  it('accepts 1 to 1,000 (as numbers or query strings) and defaults to the list\'s own size', () => {
    expect(Page.parse({})).toEqual({ skip: 0, limit: 100 });
    expect(Page.parse({ limit: '1000' }).limit).toBe(1000);
    expect(Page.parse({ limit: 200 }).limit).toBe(200);
    expect(z.object({ limit: pageLimit(50) }).parse({}).limit).toBe(50);
    expect(z.object(PageLimit).parse({ limit: '500', page: '3' })).toEqual({ page: 3, limit: 500 });
  });

  it('reads a limit above 1,000 as 1,000 instead of refusing it', () => {
    expect(MAX_PAGE_LIMIT).toBe(1000);
    expect(Page.parse({ limit: 1001 }).limit).toBe(1000);
    expect(Page.parse({ limit: '100000' }).limit).toBe(1000);
  });

  it('still refuses a limit below 1 or not an integer, naming limit', () => {
    for (const bad of [0, '0', -5, 'ten', 2.5]) {
      const parsed = Page.safeParse({ limit: bad });
      expect(parsed.success).toBe(false);
      expect(fromZodError(parsed.error!).fieldErrors.map((f) => f.field)).toEqual(['limit']);
    }
  });
});
