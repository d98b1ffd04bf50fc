// The date range of the analytics screens: a preset (the last 7, 30 or 90 days, today included)
// or two days picked by hand, in UTC days as the API counts them, kept in the address.

export const PRESETS = [7, 30, 90] as const;
export type Preset = (typeof PRESETS)[number];
/** The mailbox statistics take at most 91 days (end at most 90 days after the start). */
export const MAX_DAYS = 91;

export type RangeChoice = { preset: Preset } | { from: string; to: string };

export interface DateRange {
  startDate: string;
  endDate: string;
}

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A Date's UTC day, YYYY-MM-DD. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** Days from `startDate` to `endDate`, both included. */
export function daysIn(range: DateRange): number {
  return Math.round((Date.parse(`${range.endDate}T00:00:00Z`) - Date.parse(`${range.startDate}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The range a choice covers on `today`: a preset ends today. */
export function rangeOf(choice: RangeChoice, today: Date = new Date()): DateRange {
  if ('preset' in choice) {
    const end = utcDay(today);
    return { startDate: utcDay(new Date(Date.parse(`${end}T00:00:00Z`) - (choice.preset - 1) * DAY_MS)), endDate: end };
  }
  return { startDate: choice.from, endDate: choice.to };
}

/** What is wrong with a custom range, by field, in words; empty when it can be asked for. */
export function rangeProblems(choice: RangeChoice): { from?: string; to?: string } {
  if ('preset' in choice) return {};
  const problems: { from?: string; to?: string } = {};
  const valid = (day: string) => ISO_DAY.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`));
  if (!valid(choice.from)) problems.from = 'Choose the first day';
  if (!valid(choice.to)) problems.to = 'Choose the last day';
  if (problems.from || problems.to) return problems;
  if (choice.from > choice.to) return { to: 'The last day must not be before the first' };
  if (daysIn({ startDate: choice.from, endDate: choice.to }) > MAX_DAYS) return { to: `Choose at most ${MAX_DAYS} days` };
  return {};
}

/** The choice an address holds (`?days=30`, or `?from=…&to=…`); the last 30 days otherwise. */
export function choiceOf(params: URLSearchParams): RangeChoice {
  const from = params.get('from');
  const to = params.get('to');
  if (from !== null && to !== null) return { from, to };
  const days = Number(params.get('days'));
  return { preset: (PRESETS as readonly number[]).includes(days) ? (days as Preset) : 30 };
}

/** The address's parameters for a choice. */
export function paramsOf(choice: RangeChoice): Record<string, string> {
  return 'preset' in choice ? { days: String(choice.preset) } : { from: choice.from, to: choice.to };
}
