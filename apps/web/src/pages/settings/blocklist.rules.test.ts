import { describe, expect, it } from 'vitest';
import { chunksOf, entriesOf } from './blocklist.rules';

describe('blocklist import', () => {
  it('reads entries from lines, commas or a CSV column, each once', () => {
    expect(entriesOf('a@x.com\r\n"b@y.com", c.org;a@x.com\n\n @d.io ')).toEqual(['a@x.com', 'b@y.com', 'c.org', '@d.io']);
    expect(entriesOf('  \n ')).toEqual([]);
  });
  it('cuts a long list into requests of 1,000', () => {
    expect(chunksOf(Array.from({ length: 2500 }, (_, i) => i)).map((c) => c.length)).toEqual([1000, 1000, 500]);
  });
});
