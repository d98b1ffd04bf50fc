import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, SkipLimit, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';

const TagName = z
  .string({ error: requiredOr('a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');

/** `#RRGGBB` or `#RGB`, stored as upper-case `#RRGGBB`. */
const TagColor = z
  .string({ error: requiredOr('a string') })
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour like #A1B2C3')
  .transform((c) => {
    const hex = c.slice(1).toUpperCase();
    return `#${hex.length === 3 ? [...hex].map((d) => d + d).join('') : hex}`;
  });

const TagDescription = z.string({ error: 'must be a string' }).trim().max(500, 'must be at most 500 characters');

export const ListTagsInput = z.object({
  workspace_id: WorkspaceIdField,
  ...SkipLimit,
});
export type ListTagsInput = z.infer<typeof ListTagsInput>;

export const TagItem = z.object({
  _id: z.string(),
  name: z.string(),
  color: z.string(),
  description: z.string(),
  status: z.string(),
  ea_count: z.number().int().describe('Email accounts carrying the tag'),
  camp_count: z.number().int().describe('Campaigns carrying the tag'),
});
export type TagItem = z.infer<typeof TagItem>;

export const ListTagsOutput = z.array(TagItem);
export type ListTagsOutput = z.infer<typeof ListTagsOutput>;

export const CreateTagInput = z.object({
  workspace_id: WorkspaceIdField,
  name: TagName,
  color: TagColor,
  description: TagDescription.optional(),
});
export type CreateTagInput = z.infer<typeof CreateTagInput>;

export const CreateTagOutput = z.object({
  status: StatusSuccess,
  tag_id: z.string(),
});
export type CreateTagOutput = z.infer<typeof CreateTagOutput>;

export const UpdateTagInput = z.object({
  workspace_id: WorkspaceIdField,
  tag_id: ObjectId,
  name: TagName.optional(),
  color: TagColor.optional(),
  description: TagDescription.optional(),
});
export type UpdateTagInput = z.infer<typeof UpdateTagInput>;

export const UpdateTagOutput = z.object({ status: StatusSuccess });
export type UpdateTagOutput = z.infer<typeof UpdateTagOutput>;

export const DeleteTagsInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: z.array(ObjectId, { error: requiredOr('an array of tag ids') }).min(1, 'must hold at least one id').max(1000, 'must hold at most 1000 ids'),
});
export type DeleteTagsInput = z.infer<typeof DeleteTagsInput>;

export const DeleteTagsOutput = z.object({
  status: StatusSuccess,
  deleted_count: z.number().int(),
});
export type DeleteTagsOutput = z.infer<typeof DeleteTagsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(TagItem, 'Tag');
