// A subsequence's triggers in words, as a person reads them.
export interface TriggerEvent {
  name: string;
  val?: readonly string[] | null;
  includeText?: string | null;
  excludeText?: string | null;
}

export const LABEL_PREFIX = 'LEAD_MARKED_AS_';

export const TRIGGER_TYPES = [
  { value: 'LEAD_LABEL_UPDATED', label: 'A lead is marked with a label' },
  { value: 'LEAD_REPLY_CONTENT', label: 'A reply contains a phrase' },
  { value: 'LEAD_REPLY_ALL', label: 'A lead replies' },
  { value: 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY', label: 'A lead replies (not out-of-office or automatic)' },
] as const;

/** "when a lead is marked Interested", "when a reply contains: pricing, demo", … */
export function triggerInWords(event: TriggerEvent, labelNames: ReadonlyMap<string, string> = new Map()): string {
  switch (event.name) {
    case 'LEAD_LABEL_UPDATED': {
      const names = (event.val ?? []).map((v) => (v.startsWith(LABEL_PREFIX) ? v.slice(LABEL_PREFIX.length) : v)).map((key) => labelNames.get(key) ?? key);
      return `when a lead is marked ${names.join(' or ')}`;
    }
    case 'LEAD_REPLY_CONTENT': {
      const words = `when a reply contains: ${event.includeText ?? ''}`;
      return event.excludeText ? `${words} (but not: ${event.excludeText})` : words;
    }
    case 'LEAD_REPLY_ALL':
      return 'when a lead replies';
    case 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY':
      return 'when a lead replies (not out-of-office or automatic replies)';
    default:
      return `when ${event.name}`;
  }
}
