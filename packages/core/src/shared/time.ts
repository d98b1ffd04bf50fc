import { z } from 'zod';
import { requiredOr } from './schemas';

const ISO_DATE = 'a date in YYYY-MM-DD format';

/** `YYYY-MM-DD` that names a real calendar day (2026-02-30 is refused). */
export const IsoDate = z
  .string({ error: requiredOr(ISO_DATE) })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `must be ${ISO_DATE}`, abort: true })
  .refine((s) => {
    const d = new Date(`${s}T00:00:00.000Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'is not a real calendar date');

/** Midnight UTC at the start of a `YYYY-MM-DD` day. */
export function utcDayStart(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00.000Z`);
}

/** Midnight UTC after a `YYYY-MM-DD` day: the exclusive end of an inclusive range. */
export function utcDayEnd(isoDate: string): Date {
  return new Date(utcDayStart(isoDate).getTime() + 86_400_000);
}
