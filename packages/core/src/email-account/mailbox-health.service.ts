// Mailbox health snapshots (docs/api.md, "Mailbox health"): the score and its inputs, computed
// with a fresh DNS check of the mailbox's domain, once a day by the warmup worker and on demand
// by `GET /account/status`; one snapshot a mailbox and UTC day (a recomputation replaces it).
import { isForeignKeyViolation, newId, type PrismaClient, type Tx } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import type { DnsResolver } from '../shared/dns';
import { domainOf } from '../shared/mail-sender';
import { dayBounds } from '../shared/zoned-time';
import { dkimSelectorsFor, lookupDomainVitals } from '../account/index';
import type { HealthInputs } from './email-account.schemas';
import { mailboxActivity, type MailboxDns } from './email-account.queries';
import { healthInputs, NO_ACTIVITY, scoreOf } from './mailbox-health.rules';

export interface MailboxHealth {
  score: number;
  inputs: HealthInputs;
  warmupSentToday: number;
  sentToday: number;
}

const utcDay = (at: Date) => new Date(`${at.toISOString().slice(0, 10)}T00:00:00.000Z`);

/** DNS verdicts of domains (the vitals check), each looked up once; a domain that cannot be checked is left out. */
async function dnsOf(options: { dns: DnsResolver; domains: string[]; settingsByDomain: Map<string, unknown>; now: Date }): Promise<Map<string, MailboxDns>> {
  const out = new Map<string, MailboxDns>();
  const bySelectors = new Map<string, string[]>();
  for (const d of new Set(options.domains)) {
    const selectors = dkimSelectorsFor(options.settingsByDomain.get(d));
    const key = selectors.join(',');
    bySelectors.set(key, [...(bySelectors.get(key) ?? []), d]);
  }
  for (const [key, domains] of bySelectors) {
    const result = await lookupDomainVitals({ dns: options.dns, domains, selectors: key.split(',') });
    for (const v of result.success_list) out.set(v.domain, { spf: v.spf, dkim: v.dkim, dmarc: v.dmarc, checked_at: options.now.toISOString() });
  }
  return out;
}

/** Computes and stores the health of these mailboxes now, with a fresh DNS check: mailbox id → its health (none for a mailbox that was deleted meanwhile). */
export async function computeHealth(options: { deps: ServiceDeps; ids: string[] }): Promise<Map<string, MailboxHealth>> {
  const { deps } = options;
  const db: PrismaClient = deps.db;
  const now = deps.ports.clock.now();
  const rows = await db.emailAccount.findMany({
    where: { id: { in: options.ids } },
    select: { id: true, email: true, workspaceId: true, status: true, imapFailures: true, uniboxDayStart: true, uniboxSentToday: true, workspace: { select: { timezone: true, settings: true } } },
  });
  const settingsByDomain = new Map(rows.map((r) => [domainOf(r.email), r.workspace.settings as unknown]));
  const dns = await dnsOf({ dns: deps.ports.dns, domains: rows.map((r) => domainOf(r.email)), settingsByDomain, now });
  const out = new Map<string, MailboxHealth>();
  const byZone = new Map<string, typeof rows>();
  for (const r of rows) byZone.set(r.workspace.timezone, [...(byZone.get(r.workspace.timezone) ?? []), r]);
  for (const [timezone, zoneRows] of byZone) {
    const dayStart = dayBounds({ timezone, at: now }).start;
    const activity = await mailboxActivity({ db, ids: zoneRows.map((r) => r.id), now, dayStart });
    for (const r of zoneRows) {
      const a = activity.get(r.id);
      const unibox = r.uniboxDayStart?.getTime() === dayStart.getTime() ? r.uniboxSentToday : 0;
      const inputs = healthInputs({ status: r.status, imapFailures: r.imapFailures, activity: { ...NO_ACTIVITY, ...a, unibox_sent_today: unibox }, dns: dns.get(domainOf(r.email)) ?? null });
      out.set(r.id, { score: scoreOf(inputs), inputs, warmupSentToday: a?.warmup_sent_today ?? 0, sentToday: (a?.sent_today ?? 0) + unibox });
    }
  }
  const day = utcDay(now);
  for (const r of rows) {
    const h = out.get(r.id)!;
    try {
      await db.mailboxHealthSnapshot.upsert({
        where: { emailAccountId_day: { emailAccountId: r.id, day } },
        create: { id: newId(), emailAccountId: r.id, workspaceId: r.workspaceId, day, score: h.score, inputs: h.inputs, computedAt: now },
        update: { score: h.score, inputs: h.inputs, computedAt: now },
      });
    } catch (error) {
      // Deleted while its health was computed (during the DNS check, say): it has nothing left to
      // keep, and the other mailboxes' snapshots are still stored.
      if (!isForeignKeyViolation(error)) throw error;
      out.delete(r.id);
    }
  }
  return out;
}

/**
 * The day's snapshots of mailboxes that have none yet (at most `max` a call, the worker calls again):
 * every mailbox warming up or in an ACTIVE campaign. Returns how many were stored (a mailbox deleted meanwhile is not).
 */
export async function refreshHealthSnapshots(options: { deps: ServiceDeps; organizationIds?: string[]; max: number }): Promise<number> {
  const { deps } = options;
  const day = utcDay(deps.ports.clock.now());
  const due = await deps.db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT e.id FROM email_accounts e
      WHERE ($1::text[] IS NULL OR e.organization_id = ANY($1::text[]))
        AND (e.warmup_status = 'ACTIVE'
             OR EXISTS (SELECT 1 FROM campaign_email_accounts cea JOIN campaigns c ON c.id = cea.campaign_id AND c.status = 'ACTIVE'
                         WHERE cea.email_account_id = e.id))
        AND NOT EXISTS (SELECT 1 FROM mailbox_health_snapshots h WHERE h.email_account_id = e.id AND h.day = $2::date)
      ORDER BY e.id LIMIT $3`,
    options.organizationIds ?? null,
    day.toISOString().slice(0, 10),
    options.max,
  );
  if (!due.length) return 0;
  return (await computeHealth({ deps, ids: due.map((d) => d.id) })).size;
}

/**
 * The health scores of mailboxes now, as the account list shows them: their activity read now and
 * the DNS verdict of their latest snapshot (no DNS lookup, nothing stored). `timezone`: their
 * workspace's (today's counts).
 */
export async function currentHealthScores(options: { db: PrismaClient | Tx; ids: string[]; now: Date; timezone: string }): Promise<Map<string, number>> {
  if (!options.ids.length) return new Map();
  const dayStart = dayBounds({ timezone: options.timezone, at: options.now }).start;
  const [rows, activity] = await Promise.all([
    options.db.emailAccount.findMany({ where: { id: { in: options.ids } }, select: { id: true, status: true, imapFailures: true } }),
    mailboxActivity({ db: options.db, ids: options.ids, now: options.now, dayStart }),
  ]);
  return new Map(
    rows.map((r) => {
      const a = activity.get(r.id);
      const inputs = healthInputs({ status: r.status, imapFailures: r.imapFailures, activity: { ...NO_ACTIVITY, ...a, unibox_sent_today: 0 }, dns: a?.dns ?? null });
      return [r.id, scoreOf(inputs)];
    }),
  );
}
