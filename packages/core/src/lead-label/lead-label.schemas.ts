import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, WorkspaceIdField, ZeroOne, requiredOr } from '../shared/schemas';

export const ListLeadLabelsInput = z.object({ workspace_id: WorkspaceIdField });
export type ListLeadLabelsInput = z.infer<typeof ListLeadLabelsInput>;

export const LabelSentiment = z.enum(['POSITIVE', 'NEGATIVE', 'NEUTRAL'], { error: requiredOr('POSITIVE, NEGATIVE or NEUTRAL') });
export type LabelSentiment = z.infer<typeof LabelSentiment>;

export const LeadLabelItem = z.object({
  id: z.string(),
  key: z.string().describe('Stable key (INTERESTED, …); a label with key X fires webhook event LEAD_MARKED_AS_X'),
  name: z.string(),
  sentiment: LabelSentiment,
  icon: z.string(),
  is_system: ZeroOne.describe('1 for the eight system labels, 0 for custom ones'),
  is_ai_label: ZeroOne.describe('1 when the label is set by AI classification'),
});
export type LeadLabelItem = z.infer<typeof LeadLabelItem>;

export const ListLeadLabelsOutput = z.array(LeadLabelItem);
export type ListLeadLabelsOutput = z.infer<typeof ListLeadLabelsOutput>;

export const AddLeadLabelInput = z.object({
  workspace_id: WorkspaceIdField,
  name: z
    .string({ error: requiredOr('a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(50, 'must be at most 50 characters'),
  sentiment: LabelSentiment,
  icon: z.string({ error: 'must be a string' }).trim().max(50, 'must be at most 50 characters').optional(),
});
export type AddLeadLabelInput = z.infer<typeof AddLeadLabelInput>;

export const DeleteLeadLabelsInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: z.array(ObjectId, { error: requiredOr('an array of label ids') }).min(1, 'must hold at least one id').max(100, 'must hold at most 100 ids'),
});
export type DeleteLeadLabelsInput = z.infer<typeof DeleteLeadLabelsInput>;

export const DeleteLeadLabelsOutput = z.object({
  deleted_count: z.number().int().describe('Custom labels deleted (ids not found in the workspace are not counted)'),
});
export type DeleteLeadLabelsOutput = z.infer<typeof DeleteLeadLabelsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(LeadLabelItem, 'LeadLabel');
