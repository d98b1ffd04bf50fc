// Pure rules of the campaign domain: the status state machine, sequence checks and
// the plan that turns a stored sequence into a requested one, rates.
import type { FieldError } from '../shared/errors';
import { WEEKDAYS, type CampaignStatus, type SequenceInput, type Weekday } from './campaign.schemas';

export type CampaignAction = 'launch' | 'pause' | 'complete' | 'archive';

/**
 * The status a campaign moves to, or null when the action is not allowed from `from`.
 * DRAFT → ACTIVE ⇄ PAUSED; ACTIVE → COMPLETED (the engine); COMPLETED → ACTIVE (resume);
 * any → ARCHIVED; an ARCHIVED campaign stays archived.
 */
export function nextStatus(options: { from: CampaignStatus; action: CampaignAction }): CampaignStatus | null {
  const { from, action } = options;
  switch (action) {
    case 'launch':
      return from === 'DRAFT' || from === 'PAUSED' || from === 'COMPLETED' ? 'ACTIVE' : null;
    case 'pause':
      return from === 'ACTIVE' ? 'PAUSED' : null;
    case 'complete':
      return from === 'ACTIVE' ? 'COMPLETED' : null;
    case 'archive':
      return 'ARCHIVED';
  }
}

/** Why an action is refused, in words naming the current status. */
export function transitionRefusal(options: { from: CampaignStatus; action: CampaignAction }): string {
  const { from, action } = options;
  if (action === 'launch' && from === 'ACTIVE') return 'campaign is already ACTIVE';
  if (action === 'launch' && from === 'ARCHIVED') return 'campaign is ARCHIVED; an archived campaign cannot be launched';
  if (action === 'pause') return `campaign is ${from}; only an ACTIVE campaign can be paused`;
  return `campaign is ${from}; it cannot ${action}`;
}

/** What launching needs; each missing piece is one field error. */
export function launchBlockers(options: { sendableSteps: number; emailAccounts: number; hasSchedule: boolean }): FieldError[] {
  const errors: FieldError[] = [];
  if (options.sendableSteps === 0) {
    errors.push({ field: 'sequences', message: 'needs at least one step with an active variation that has a subject and a body' });
  }
  if (options.emailAccounts === 0) errors.push({ field: 'email_accounts', message: 'needs at least one email account' });
  if (!options.hasSchedule) errors.push({ field: 'schedules', message: 'needs a sending schedule' });
  return errors;
}

/** Steps numbered 1..n, each once; variation labels unique within a step. */
export function sequenceErrors(sequence: SequenceInput): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<number, number>();
  sequence.forEach((step, i) => {
    if (step.step > sequence.length) {
      errors.push({ field: `sequences.${i}.step`, message: `must be between 1 and ${sequence.length} (steps are numbered 1..n consecutively)` });
    } else if (seen.has(step.step)) {
      errors.push({ field: `sequences.${i}.step`, message: `repeats step ${step.step} (also at sequences.${seen.get(step.step)})` });
    } else {
      seen.set(step.step, i);
    }
    const labels = new Map<string, number>();
    step.variations.forEach((v, j) => {
      if (labels.has(v.variation)) {
        errors.push({ field: `sequences.${i}.variations.${j}.variation`, message: `repeats variation ${v.variation} of step ${step.step}` });
      } else {
        labels.set(v.variation, j);
      }
    });
  });
  return errors;
}

export interface StoredStep {
  id: string;
  step: number;
  variations: { id: string; label: string; hasSends: boolean }[];
}

export interface SequencePlan {
  /** Steps to write (created or updated by number), with the variations to create or update in place. */
  steps: {
    step: number;
    waitTime: number;
    existingId: string | null;
    variations: { existingId: string | null; label: string; name: string | null; subject: string; body: string }[];
  }[];
  /** Variations that have sends: kept as deleted (and inactive), so their statistics survive. */
  markDeleted: string[];
  /** Variations without sends, gone from the new sequence. */
  remove: string[];
  /** Steps gone from the new sequence whose variations are all removed. */
  removeSteps: string[];
}

/**
 * The writes that replace a stored sequence with `sequence` (already checked with
 * sequenceErrors): a (step, label) pair that exists is updated in place (and revived when
 * it was deleted); one no longer wanted is marked deleted when it has sends, removed
 * otherwise; a step no longer wanted keeps its row only while it holds a variation with sends.
 */
export function planSequence(options: { stored: StoredStep[]; sequence: SequenceInput }): SequencePlan {
  const storedByStep = new Map(options.stored.map((s) => [s.step, s]));
  const plan: SequencePlan = { steps: [], markDeleted: [], remove: [], removeSteps: [] };
  const wanted = new Set<string>();
  for (const step of [...options.sequence].sort((a, b) => a.step - b.step)) {
    const stored = storedByStep.get(step.step);
    const byLabel = new Map((stored?.variations ?? []).map((v) => [v.label, v]));
    plan.steps.push({
      step: step.step,
      waitTime: step.wait_time,
      existingId: stored?.id ?? null,
      variations: step.variations.map((v) => {
        const existing = byLabel.get(v.variation);
        if (existing) wanted.add(existing.id);
        return { existingId: existing?.id ?? null, label: v.variation, name: v.name?.trim() ? v.name : null, subject: v.subject, body: v.body };
      }),
    });
  }
  const wantedSteps = new Set(options.sequence.map((s) => s.step));
  for (const stored of options.stored) {
    let keepsSends = false;
    for (const v of stored.variations) {
      if (wanted.has(v.id)) continue;
      if (v.hasSends) {
        plan.markDeleted.push(v.id);
        keepsSends = true;
      } else {
        plan.remove.push(v.id);
      }
    }
    if (!wantedSteps.has(stored.step) && !keepsSends) plan.removeSteps.push(stored.id);
  }
  return plan;
}

/** count / base × 100, rounded to 2 decimals; 0 when the base is 0. */
export function rate(options: { count: number; base: number }): number {
  if (!options.base) return 0;
  return Math.round((options.count / options.base) * 10_000) / 100;
}

/**
 * The write shape's days ({"1": true, …}, "1" = Monday) as the read shape's day names,
 * Monday first; days set to false, and keys that are no day, are left out.
 */
export function dayNames(days: Readonly<Record<string, unknown>>): Weekday[] {
  return WEEKDAYS.filter((_, i) => days[String(i + 1)] === true);
}

/** `YYYY-MM-DD` of a `date` column (stored at midnight UTC), or null. */
export function isoDay(date: Date | null): string | null {
  return date ? date.toISOString().slice(0, 10) : null;
}
