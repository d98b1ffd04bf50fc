import { describe, expect, it } from 'vitest';
import { isDeadlock } from './errors';

describe('isDeadlock', () => {
  it('knows PostgreSQL deadlock victims (40P01) as the driver adapters report them, and nothing else', () => {
    expect(isDeadlock({ message: 'Invalid `prisma.$queryRawUnsafe()` invocation:\n\nRaw query failed. Code: `40P01`. Message: `deadlock detected`' })).toBe(true);
    expect(isDeadlock({ code: 'P2010', meta: { code: '40P01' }, message: 'Raw query failed' })).toBe(true);
    expect(isDeadlock({ code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '40P01' } } }, message: 'x' })).toBe(true);
    expect(isDeadlock({ code: 'P2002', meta: { target: ['email'] }, message: 'Unique constraint failed' })).toBe(false);
    expect(isDeadlock(new Error('connection reset'))).toBe(false);
    expect(isDeadlock(null)).toBe(false);
  });
});
