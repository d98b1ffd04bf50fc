import { describe, expect, it } from 'vitest';
import { textArrayLiteral } from './text-array.rules';

describe('textArrayLiteral', () => {
  it('quotes every element, escapes quotes and backslashes, and writes null as NULL', () => {
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['a', null, ''])).toBe('{"a",NULL,""}');
    expect(textArrayLiteral(['NULL', 'say "hi"', 'C:\\dir', '{x,y}', ' padded '])).toBe('{"NULL","say \\"hi\\"","C:\\\\dir","{x,y}"," padded "}');
  });
});
