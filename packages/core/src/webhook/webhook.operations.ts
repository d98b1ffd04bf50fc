import { promises as dnsPromises } from 'node:dns';
import { newId } from '@outreach/db';
import type { Ctx } from '../shared/context';
import { defineOperation } from '../shared/operation';
import { invalidField, notFound } from '../shared/errors';
import { OutboundTargetRefused, resolvePublicTarget, type LookupAll } from '../shared/outbound-guard';
import { ALL_CAMPAIGNS, FIXED_WEBHOOK_EVENTS, LABEL_EVENT_PREFIX, listedWebhookUrl, TEST_WEBHOOK_EVENT } from './webhook.rules';
import {
  AddWebhookInput,
  AddWebhookOutput,
  DeleteWebhooksInput,
  DeleteWebhooksOutput,
  ListWebhooksInput,
  ListWebhooksOutput,
  TestWebhookInput,
  TestWebhookOutput,
} from './webhook.schemas';

const OBJECT_ID = /^[0-9a-f]{24}$/;
const FIXED_EVENTS: ReadonlySet<string> = new Set(FIXED_WEBHOOK_EVENTS);
/** How long resolving a webhook's host may take when it is added. */
const RESOLVE_TIMEOUT_MS = 5_000;

/** dns.lookup within RESOLVE_TIMEOUT_MS (a lookup cannot be cancelled: a late answer is dropped). */
const boundedLookup: LookupAll = (host, options) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`lookup of ${host} timed out`), { code: 'ETIMEOUT' })), RESOLVE_TIMEOUT_MS);
  });
  return Promise.race([dnsPromises.lookup(host, options), timeout]).finally(() => clearTimeout(timer));
};

/**
 * A webhook's URL must reach a public address unless private targets are allowed: its host
 * (an IP literal as it is, a name through every address it resolves to) is checked by the
 * outbound guard, as each delivery checks it again. A 400 naming `url` otherwise.
 */
async function assertPublicWebhookUrl(ctx: Ctx, url: string): Promise<void> {
  if (ctx.settings.allowPrivateTargets) return;
  try {
    await resolvePublicTarget({ url, allowPrivate: false, lookup: boundedLookup });
  } catch (error) {
    if (!(error instanceof OutboundTargetRefused)) throw error;
    if (error.address === null) {
      // Only name resolution fails here: the schema has vetted the URL and its scheme.
      const reason = error.message.slice(error.message.lastIndexOf(': ') + 2);
      throw invalidField('url', `has a host that cannot be resolved: ${error.host} (${reason})`);
    }
    const shown = error.address === error.host ? error.host : `${error.host} (${error.address})`;
    throw invalidField(
      'url',
      `must reach a public address: ${shown} is a private, loopback, link-local or reserved address (set ALLOW_PRIVATE_TARGETS=true to allow it)`,
    );
  }
}

export const listWebhooks = defineOperation({
  name: 'webhook.list',
  kind: 'query',
  summary: 'List webhooks',
  description:
    'The workspace\'s webhook subscriptions, oldest first. `secret` is decrypted and echoed in plain text as the vendor does ("" when none). `last_run` and `last_resp` are null until the first delivery. Client keys need HOOK_CREATE, the only hook permission the vendor defines.',
  input: ListWebhooksInput,
  output: ListWebhooksOutput,
  workspace: 'required',
  permission: 'HOOK_CREATE',
  async run(ctx, input) {
    const rows = await ctx.db.webhook.findMany({
      where: { workspaceId: input.workspace_id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return {
      hooks: rows.map((h) => ({
        _id: h.id,
        workspace_id: h.workspaceId,
        org_id: h.organizationId,
        url: listedWebhookUrl(h.url),
        name: h.name,
        secret: h.secretEnc ? ctx.secrets.decrypt(h.secretEnc) : '',
        camp_ids: h.campIds,
        evt_types: h.eventTypes,
        status: h.status,
        ignore_ooo: h.ignoreOoo ? (1 as const) : (0 as const),
        ignore_automatic: h.ignoreAutomatic ? (1 as const) : (0 as const),
        created_at: h.createdAt.toISOString(),
        modified_at: h.updatedAt.toISOString(),
        last_run: h.lastRun?.toISOString() ?? null,
        last_resp: h.lastResp,
      })),
    };
  },
});

export const addWebhook = defineOperation({
  name: 'webhook.add',
  kind: 'mutation',
  role: 'admin',
  summary: 'Add a webhook',
  description: [
    'Subscribes an http(s) URL to events of the workspace; the webhook starts ACTIVE.',
    'The URL must not carry a username or password (sign with `secret` instead), and must reach a public address: a host that is, or resolves to, a private, loopback, link-local or reserved address, or that cannot be resolved, is 400 naming `url` (unless the server allows private targets, ALLOW_PRIVATE_TARGETS=true).',
    '`camp_ids` is `["ALL"]` for every campaign now and later, or campaign ids of the workspace (an unknown or foreign id is 400 naming `camp_ids.<i>`; "ALL" mixed with ids is rejected the same way). Repeated ids count once.',
    '`event_types`: FIRST_EMAIL_REPLIES, ALL_EMAIL_REPLIES, ALL_POSITIVE_REPLIES, EMAIL_SENT, BOUNCED_EMAIL, UNIBOX_EMAIL_SENT, SYSTEM_ALERT, or LEAD_MARKED_AS_<KEY> for a lead label key of the workspace (400 naming `event_types.<i>` otherwise). Event names are case-sensitive, as the vendor\'s.',
    '`secret` is stored encrypted (AES-256-GCM) and echoed by the list. `ignore_ooo` and `ignore_automatic` take 0 or 1 (default 0), or any boolean form (true/false, "yes"/"no"); the list answers them as 0 or 1.',
  ].join(' '),
  input: AddWebhookInput,
  output: AddWebhookOutput,
  workspace: 'required',
  permission: 'HOOK_CREATE',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const campIds = [...new Set(input.camp_ids.map((c) => (c === ALL_CAMPAIGNS ? c : c.toLowerCase())))];
    const allCampaigns = campIds.includes(ALL_CAMPAIGNS);
    if (allCampaigns && campIds.length > 1) {
      throw invalidField(`camp_ids.${input.camp_ids.findIndex((c) => c !== ALL_CAMPAIGNS)}`, 'must not be given with "ALL"');
    }
    const malformed = input.camp_ids.findIndex((c) => c !== ALL_CAMPAIGNS && !OBJECT_ID.test(c.toLowerCase()));
    if (!allCampaigns && malformed >= 0) throw invalidField(`camp_ids.${malformed}`, 'must be a 24-character hexadecimal id or "ALL"');
    const eventTypes = [...new Set(input.event_types)];
    const labelKeys = input.event_types.filter((e) => e.startsWith(LABEL_EVENT_PREFIX)).map((e) => e.slice(LABEL_EVENT_PREFIX.length));
    await assertPublicWebhookUrl(ctx, input.url);

    const id = newId();
    await ctx.db.$transaction(async (tx) => {
      const [campaigns, labels] = await Promise.all([
        allCampaigns ? [] : tx.campaign.findMany({ where: { workspaceId, id: { in: campIds } }, select: { id: true } }),
        labelKeys.length ? tx.leadLabel.findMany({ where: { workspaceId, key: { in: labelKeys } }, select: { key: true } }) : [],
      ]);
      if (!allCampaigns) {
        const known = new Set(campaigns.map((c) => c.id));
        const missing = input.camp_ids.findIndex((c) => !known.has(c.toLowerCase()));
        if (missing >= 0) throw invalidField(`camp_ids.${missing}`, 'is not a campaign of this workspace');
      }
      const knownKeys = new Set(labels.map((l) => l.key));
      const badEvent = input.event_types.findIndex(
        (e) => !FIXED_EVENTS.has(e) && !(e.startsWith(LABEL_EVENT_PREFIX) && knownKeys.has(e.slice(LABEL_EVENT_PREFIX.length))),
      );
      if (badEvent >= 0) {
        throw invalidField(
          `event_types.${badEvent}`,
          `must be one of ${FIXED_WEBHOOK_EVENTS.join(', ')} or ${LABEL_EVENT_PREFIX}<KEY> for a lead label of this workspace`,
        );
      }
      await tx.webhook.create({
        data: {
          id,
          organizationId: ctx.actor.organizationId,
          workspaceId,
          url: input.url,
          name: input.name ?? '',
          secretEnc: input.secret ? ctx.secrets.encrypt(input.secret) : null,
          campIds,
          eventTypes,
          ignoreOoo: input.ignore_ooo,
          ignoreAutomatic: input.ignore_automatic,
        },
      });
    });
    return { status: 'success' as const, _id: id };
  },
});

export const deleteWebhooks = defineOperation({
  name: 'webhook.delete',
  kind: 'mutation',
  role: 'admin',
  summary: 'Delete webhooks',
  description:
    'Deletes webhooks of the workspace by id. Ids that are unknown or of another workspace are ignored; `deleted_count` counts the webhooks removed.',
  input: DeleteWebhooksInput,
  output: DeleteWebhooksOutput,
  workspace: 'required',
  permission: 'HOOK_CREATE',
  async run(ctx, input) {
    const deleted = await ctx.db.$transaction(async (tx) =>
      tx.webhook.deleteMany({ where: { workspaceId: input.workspace_id, id: { in: input.ids } } }),
    );
    return { status: 'success' as const, deleted_count: deleted.count };
  },
});

export const testWebhook = defineOperation({
  name: 'webhook.test',
  kind: 'mutation',
  role: 'admin',
  summary: 'Send a test event to a webhook',
  description: [
    `Queues one \`${TEST_WEBHOOK_EVENT}\` event for the webhook, whatever events it subscribes to; the webhook worker POSTs it as any other (signed with the secret, retried on failure) and records the outcome in the webhook's \`last_run\` and \`last_resp\`.`,
    'The payload carries the common keys (`webhook_id`, `webhook_name`, `webhook_event`, `workspace_id`, `workspace_name`) with `message` and `date`.',
    'An unknown webhook, or another workspace\'s, is 404 `webhook.not_found`; a DISABLED one is 400 naming `id`. Our addition: the vendor has no test event.',
  ].join(' '),
  input: TestWebhookInput,
  output: TestWebhookOutput,
  workspace: 'required',
  permission: 'HOOK_CREATE',
  async run(ctx, input) {
    const now = ctx.ports.clock.now();
    const id = newId(now.getTime());
    await ctx.db.$transaction(async (tx) => {
      const hook = await tx.webhook.findFirst({
        where: { id: input.id, workspaceId: input.workspace_id },
        select: { id: true, name: true, status: true, workspace: { select: { name: true } } },
      });
      if (!hook) throw notFound('webhook.not_found', `webhook ${input.id} is not a webhook of this workspace`);
      if (hook.status !== 'ACTIVE') throw invalidField('id', 'is a disabled webhook: add it again to receive events');
      await tx.webhookDelivery.create({
        data: {
          id,
          webhookId: hook.id,
          workspaceId: input.workspace_id,
          event: TEST_WEBHOOK_EVENT,
          payload: {
            webhook_id: hook.id,
            webhook_name: hook.name,
            webhook_event: TEST_WEBHOOK_EVENT,
            workspace_id: input.workspace_id,
            workspace_name: hook.workspace.name,
            message: 'A test event sent from Outreach',
            date: now.toISOString(),
          },
          nextAttemptAt: now,
          createdAt: now,
        },
      });
    });
    return { status: 'success' as const, delivery_id: id };
  },
});
