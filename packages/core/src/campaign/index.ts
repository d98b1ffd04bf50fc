// The operations of this domain, keyed as their tRPC procedures are (`campaign.<key>`).
import { getVariationStats } from './variation-stats.operations';
import { createSubsequence } from './subsequence.operations';

export const campaignOperations = {
  variationStats: getVariationStats,
  addSubsequence: createSubsequence,
} as const;
