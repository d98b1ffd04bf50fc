import { describe, expect, it } from 'vitest';
import { isObjectId, newId } from './ids';

describe('ObjectId-style ids', () => {
  it('are 24 lower-case hex characters that start with the creation second', () => {
    const at = Date.UTC(2026, 10, 22, 12, 0, 0);
    const id = newId(at);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(parseInt(id.slice(0, 8), 16)).toBe(at / 1000);
    expect(isObjectId(id)).toBe(true);
    expect(isObjectId('6b0267650c6ae452b677e09')).toBe(false);
    expect(isObjectId('6B0267650C6AE452B677E090')).toBe(false);
  });

  it('never repeat within a process, even within the same second', () => {
    const ids = new Set(Array.from({ length: 50_000 }, () => newId(1_700_000_000_000)));
    expect(ids.size).toBe(50_000);
  });
});
