import { classifyPrismaError, newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { conflict, notFound } from '../shared/errors';
import {
  CreateTagInput,
  CreateTagOutput,
  DeleteTagsInput,
  DeleteTagsOutput,
  ListTagsInput,
  ListTagsOutput,
  UpdateTagInput,
  UpdateTagOutput,
} from './tag.schemas';

const normalizeName = (name: string) => name.trim().toLowerCase();

/** The (workspace_id, name_normalized) index decides, so two concurrent creates cannot both win. */
function duplicateNameOr(error: unknown, name: string): unknown {
  if (classifyPrismaError(error)?.kind === 'conflict') {
    return conflict('tag.duplicate_name', `a tag named "${name}" already exists in this workspace`);
  }
  return error;
}

export const listTags = defineOperation({
  name: 'tag.list',
  kind: 'query',
  summary: 'List tags',
  description:
    'The workspace\'s tags, oldest first (ties by id), paged with `skip` and `limit`. `ea_count` and `camp_count` are counted when asked, never stored, so they are always current.',
  input: ListTagsInput,
  output: ListTagsOutput,
  workspace: 'required',
  permission: 'TAG_LIST',
  async run(ctx, input) {
    const rows = await ctx.db.tag.findMany({
      where: { workspaceId: input.workspace_id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: input.skip,
      take: input.limit,
      select: {
        id: true,
        name: true,
        color: true,
        description: true,
        status: true,
        _count: { select: { campaigns: true, emailAccounts: true } },
      },
    });
    return rows.map((r) => ({
      _id: r.id,
      name: r.name,
      color: r.color,
      description: r.description,
      status: r.status,
      ea_count: r._count.emailAccounts,
      camp_count: r._count.campaigns,
    }));
  },
});

export const createTag = defineOperation({
  name: 'tag.create',
  kind: 'mutation',
  summary: 'Create a tag',
  description:
    'Creates an ACTIVE tag. The name is trimmed and unique per workspace regardless of case (409 `tag.duplicate_name`). The colour is `#RRGGBB` or `#RGB`, stored as upper-case `#RRGGBB`; the description defaults to "".',
  input: CreateTagInput,
  output: CreateTagOutput,
  workspace: 'required',
  permission: 'TAG_CREATE',
  async run(ctx, input) {
    const id = newId();
    await ctx.db
      .$transaction(async (tx) =>
        tx.tag.create({
          data: {
            id,
            workspaceId: input.workspace_id,
            name: input.name,
            nameNormalized: normalizeName(input.name),
            color: input.color,
            description: input.description ?? '',
          },
        }),
      )
      .catch((error: unknown) => {
        throw duplicateNameOr(error, input.name);
      });
    return { status: 'success' as const, tag_id: id };
  },
});

export const updateTag = defineOperation({
  name: 'tag.update',
  kind: 'mutation',
  summary: 'Update a tag',
  description:
    'Changes the name, colour or description of a tag; fields left out keep their value. A tag of another workspace is 404 like an unknown one; a name taken by another tag of the workspace (case-insensitively) is 409 `tag.duplicate_name`.',
  input: UpdateTagInput,
  output: UpdateTagOutput,
  workspace: 'required',
  permission: 'TAG_EDIT',
  async run(ctx, input) {
    const updated = await ctx.db
      .$transaction(async (tx) =>
        tx.tag.updateMany({
          where: { id: input.tag_id, workspaceId: input.workspace_id },
          data: {
            ...(input.name !== undefined ? { name: input.name, nameNormalized: normalizeName(input.name) } : {}),
            ...(input.color !== undefined ? { color: input.color } : {}),
            ...(input.description !== undefined ? { description: input.description } : {}),
          },
        }),
      )
      .catch((error: unknown) => {
        throw duplicateNameOr(error, input.name ?? '');
      });
    if (updated.count === 0) throw notFound('tag.not_found', `tag ${input.tag_id} not found in this workspace`);
    return { status: 'success' as const };
  },
});

export const deleteTags = defineOperation({
  name: 'tag.delete',
  kind: 'mutation',
  summary: 'Delete tags',
  description:
    'Deletes tags of the workspace by id; the tags are removed from their campaigns and email accounts too. Ids that are unknown or of another workspace are ignored; `deleted_count` counts the tags removed.',
  input: DeleteTagsInput,
  output: DeleteTagsOutput,
  workspace: 'required',
  permission: 'TAG_DELETE',
  async run(ctx, input) {
    // campaign_tags and email_account_tags rows go with the tag by ON DELETE CASCADE.
    const deleted = await ctx.db.$transaction(async (tx) =>
      tx.tag.deleteMany({ where: { workspaceId: input.workspace_id, id: { in: input.ids } } }),
    );
    return { status: 'success' as const, deleted_count: deleted.count };
  },
});
