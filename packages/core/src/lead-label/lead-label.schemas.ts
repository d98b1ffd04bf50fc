import { z } from 'zod';
import { WorkspaceIdField } from '../shared/schemas';

export const ListLeadLabelsInput = z.object({ workspace_id: WorkspaceIdField });
export type ListLeadLabelsInput = z.infer<typeof ListLeadLabelsInput>;

export const LeadLabelItem = z.object({
  id: z.string(),
  key: z.string().describe('Stable key (INTERESTED, …); a label with key X fires webhook event LEAD_MARKED_AS_X'),
  name: z.string(),
  sentiment: z.enum(['POSITIVE', 'NEGATIVE', 'NEUTRAL']),
  icon: z.string(),
  is_system: z.boolean(),
  is_ai_label: z.boolean(),
});
export type LeadLabelItem = z.infer<typeof LeadLabelItem>;

export const ListLeadLabelsOutput = z.array(LeadLabelItem);
export type ListLeadLabelsOutput = z.infer<typeof ListLeadLabelsOutput>;
