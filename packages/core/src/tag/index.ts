// The operations of this domain, keyed as their tRPC procedures are (`tag.<key>`).
import { createTag, deleteTags, listTags, updateTag } from './tag.operations';

export const tagOperations = {
  list: listTags,
  create: createTag,
  update: updateTag,
  delete: deleteTags,
} as const;
