import { describe, expect, it } from 'vitest';
import { concurrentChangeOf, isDeadlock } from './errors';

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

describe('concurrentChangeOf', () => {
  it('names the failures another transaction caused, as Prisma and the adapters report them, and nothing else', () => {
    const adapter = (code: string) => ({ name: 'DriverAdapterError', cause: { originalCode: code } });
    expect(concurrentChangeOf({ code: 'P2003', meta: { modelName: 'EmailAccountTag' }, message: 'Foreign key constraint violated' })).toBe('missing_reference');
    expect(concurrentChangeOf({ code: 'P2025', meta: { modelName: 'EmailAccount' }, message: 'No record was found for an update.' })).toBe('missing_row');
    expect(concurrentChangeOf({ code: 'P2034', meta: { driverAdapterError: adapter('40P01') }, message: 'Transaction failed due to a write conflict or a deadlock' })).toBe('deadlock');
    expect(concurrentChangeOf({ code: 'P2034', meta: { driverAdapterError: adapter('40001') }, message: 'Transaction failed due to a write conflict or a deadlock' })).toBe('serialization');
    expect(concurrentChangeOf({ code: 'P2010', meta: { driverAdapterError: adapter('40001') }, message: 'Raw query failed' })).toBe('serialization');
    expect(concurrentChangeOf({ code: 'P2002', meta: { target: ['email'] }, message: 'Unique constraint failed' })).toBeNull();
    expect(concurrentChangeOf(new Error('connection reset'))).toBeNull();
    expect(concurrentChangeOf(null)).toBeNull();
  });
});
