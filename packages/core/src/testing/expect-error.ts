import { expect } from 'vitest';
import { DomainError } from '../shared/errors';

/** Awaits a promise that must fail with a DomainError of this kind (and code). */
export async function expectDomainError(promise: Promise<unknown>, kind: string, code?: string): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected a DomainError').toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe(kind);
  if (code) expect((error as DomainError).code).toBe(code);
  return error as DomainError;
}
