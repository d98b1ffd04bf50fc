import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';

export const SUBSEQUENCE_EVENTS = [
  'LEAD_LABEL_UPDATED',
  'LEAD_REPLY_CONTENT',
  'LEAD_REPLY_ALL',
  'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY',
] as const;
export type SubsequenceEventName = (typeof SUBSEQUENCE_EVENTS)[number];

export const LABEL_PREFIX = 'LEAD_MARKED_AS_';

/** Comma-separated phrases, trimmed, empty ones dropped. */
export function splitPhrases(text: string | undefined): string[] {
  return (text ?? '').split(',').map((p) => p.trim()).filter(Boolean);
}

export const SubsequenceEvent = z.object({
  name: z.string({ error: requiredOr('a string') }),
  val: z.array(z.string({ error: 'must be a string' })).optional(),
  include_text: z.string({ error: 'must be a string' }).optional(),
  exclude_text: z.string({ error: 'must be a string' }).optional(),
});
export type SubsequenceEvent = z.infer<typeof SubsequenceEvent>;

function checkEvent(event: SubsequenceEvent, index: number, ctx: z.RefinementCtx) {
  const at = (...path: (string | number)[]) => ['events', index, ...path];
  const name = event.name as SubsequenceEventName;
  if (!SUBSEQUENCE_EVENTS.includes(name)) {
    ctx.addIssue({ code: 'custom', path: at('name'), message: `must be one of ${SUBSEQUENCE_EVENTS.join(', ')}` });
    return;
  }
  const unused = (field: 'val' | 'include_text' | 'exclude_text') => {
    const value = event[field];
    if (value !== undefined && (Array.isArray(value) ? value.length > 0 : value.trim() !== '')) {
      ctx.addIssue({ code: 'custom', path: at(field), message: `is not used by ${name}` });
    }
  };
  if (name === 'LEAD_LABEL_UPDATED') {
    if (!event.val?.length) ctx.addIssue({ code: 'custom', path: at('val'), message: 'must list at least one label for LEAD_LABEL_UPDATED' });
    event.val?.forEach((label, i) => {
      if (!label.startsWith(LABEL_PREFIX) || label.length === LABEL_PREFIX.length) {
        ctx.addIssue({ code: 'custom', path: at('val', i), message: `must begin with ${LABEL_PREFIX} followed by a label key` });
      }
    });
    unused('include_text');
    unused('exclude_text');
  } else if (name === 'LEAD_REPLY_CONTENT') {
    if (!splitPhrases(event.include_text).length) {
      ctx.addIssue({ code: 'custom', path: at('include_text'), message: 'is required for LEAD_REPLY_CONTENT (comma-separated phrases)' });
    }
    unused('val');
  } else {
    unused('val');
    unused('include_text');
    unused('exclude_text');
  }
}

export const CreateSubsequenceInput = z
  .object({
    workspace_id: WorkspaceIdField.optional().describe("Defaults to the parent campaign's workspace"),
    name: z
      .string({ error: requiredOr('a string') })
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters'),
    parent_camp_id: ObjectId.describe('The parent campaign (not a subsequence)'),
    events: z.array(SubsequenceEvent).min(1, 'must list at least one trigger event'),
  })
  .superRefine((input, ctx) => input.events.forEach((event, index) => checkEvent(event, index, ctx)));
export type CreateSubsequenceInput = z.infer<typeof CreateSubsequenceInput>;

export const CreateSubsequenceOutput = z.object({
  status: StatusSuccess,
  id: z.string().describe('The new subsequence identifier'),
});
export type CreateSubsequenceOutput = z.infer<typeof CreateSubsequenceOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(SubsequenceEvent, 'SubsequenceEvent');
