import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, WorkspaceIdField } from '../shared/schemas';
import { IsoDate } from '../shared/time';

export const VariationStatsInput = z
  .object({
    workspace_id: WorkspaceIdField,
    campaign_id: ObjectId.describe('Campaign (or subsequence) identifier'),
    start_date: IsoDate.optional().describe('Range start, YYYY-MM-DD (UTC), inclusive'),
    end_date: IsoDate.optional().describe('Range end, YYYY-MM-DD (UTC), inclusive'),
  })
  .refine((v) => !(v.start_date && v.end_date && v.start_date > v.end_date), {
    message: 'must not be after end_date',
    path: ['start_date'],
  });
export type VariationStatsInput = z.infer<typeof VariationStatsInput>;

export const VariationStats = z.object({
  variation: z.string().describe('Variation label: A, B, …'),
  sent: z.number().int().describe('Sends produced by this variation in the range'),
  open: z.number().int().describe('Those sends opened at least once by a person (machine opens excluded); 0 when open tracking is off'),
  reply: z.number().int().describe('Those sends answered by at least one reply (auto-replies excluded)'),
  pos_reply: z.number().int().describe('Replied sends whose lead currently carries a label of positive sentiment'),
  name: z.string().describe('Custom variation name, or "-" when none is set'),
  is_active: z.boolean(),
  is_del: z.boolean(),
});
export type VariationStats = z.infer<typeof VariationStats>;

export const VariationStepStats = z.object({
  step: z.number().int(),
  variations: z.array(VariationStats),
});
export type VariationStepStats = z.infer<typeof VariationStepStats>;

export const VariationStatsOutput = z.array(VariationStepStats);
export type VariationStatsOutput = z.infer<typeof VariationStatsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(VariationStepStats, 'VariationStepStats');
nameApiSchema(VariationStats, 'VariationStats');
