import { newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import type { NormalizedEntry } from './blocklist.rules';
import {
  AddBlocklistEntriesInput,
  AddBlocklistEntriesOutput,
  DeleteBlocklistEntriesInput,
  DeleteBlocklistEntriesOutput,
  ListBlocklistInput,
  ListBlocklistOutput,
} from './blocklist.schemas';

/** The same value twice in one request counts once. */
function uniqueEntries(entries: NormalizedEntry[]): NormalizedEntry[] {
  return [...new Map(entries.map((e) => [e.value, e])).values()];
}

export const listBlocklist = defineOperation({
  name: 'blocklist.list',
  kind: 'query',
  summary: 'List blocklist entries',
  description:
    'The workspace\'s blocklist, newest first (ties by id), paged with `skip` and `limit`; `search` keeps the entries containing its text, case-insensitively (our addition). As the vendor does, the answer is an object keyed "0", "1", … rather than an array; an empty page is `{}`.',
  input: ListBlocklistInput,
  output: ListBlocklistOutput,
  workspace: 'required',
  permission: 'BLOCKLIST_LIST',
  async run(ctx, input) {
    const rows = await ctx.db.blocklistEntry.findMany({
      // Entries are stored lower-case, so a lower-cased search finds them whatever case it was typed in;
      // Prisma passes LIKE's wildcards through, so `%`, `_` and the escape `\` are escaped to match themselves.
      where: {
        workspaceId: input.workspace_id,
        ...(input.search ? { value: { contains: input.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) } } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: input.skip,
      take: input.limit,
      select: { id: true, workspaceId: true, value: true, createdByLabel: true, createdAt: true },
    });
    return Object.fromEntries(
      rows.map((r, i) => [
        String(i),
        { _id: r.id, workspace_id: r.workspaceId, value: r.value, created_by_label: r.createdByLabel, created_at: r.createdAt.toISOString() },
      ]),
    );
  },
});

export const addBlocklistEntries = defineOperation({
  name: 'blocklist.addEntries',
  kind: 'mutation',
  summary: 'Add entries to the blocklist',
  description:
    'Adds 1 to 1000 addresses or domains. Each entry is trimmed and lower-cased; a leading `@` or `*@` is dropped and marks a domain. An entry that is neither an address nor a domain fails the whole request with 400 naming `entries.<i>`. Duplicates within the request count once; `already_in_blocklist` counts the distinct entries that were blocked already. Entries added through the API are labelled `API`.',
  input: AddBlocklistEntriesInput,
  output: AddBlocklistEntriesOutput,
  workspace: 'required',
  permission: 'BLOCKLIST_CREATE',
  async run(ctx, input) {
    const entries = uniqueEntries(input.entries);
    // skipDuplicates leans on the (workspace_id, value) unique index, so concurrent adds of
    // the same value neither fail nor double-count.
    const created = await ctx.db.$transaction(async (tx) =>
      tx.blocklistEntry.createMany({
        data: entries.map((e) => ({ id: newId(), workspaceId: input.workspace_id, value: e.value, isDomain: e.isDomain, createdByLabel: 'API' })),
        skipDuplicates: true,
      }),
    );
    return { status: 'success' as const, entries_added: created.count, already_in_blocklist: entries.length - created.count };
  },
});

export const deleteBlocklistEntries = defineOperation({
  name: 'blocklist.deleteEntries',
  kind: 'mutation',
  summary: 'Delete entries from the blocklist',
  description:
    'Removes addresses or domains, normalised as when adding (so `@Example.com` removes `example.com`). Entries that are not in the blocklist are ignored; `entries_deleted` counts the rows removed.',
  input: DeleteBlocklistEntriesInput,
  output: DeleteBlocklistEntriesOutput,
  workspace: 'required',
  permission: 'BLOCKLIST_DELETE',
  async run(ctx, input) {
    const values = uniqueEntries(input.entries).map((e) => e.value);
    const deleted = await ctx.db.$transaction(async (tx) =>
      tx.blocklistEntry.deleteMany({ where: { workspaceId: input.workspace_id, value: { in: values } } }),
    );
    return { status: 'success' as const, entries_deleted: deleted.count };
  },
});
