/**
 * The sending side of warmup (docs/api.md, "Warmup"): each tick, every pool mailbox that may send
 * now sends at most one warmup e-mail, through the same mail-sender port and pooled connection as
 * its campaign sends (XOAUTH2 mailboxes log in with their access token):
 * - an answer first, when it decided to answer a warmup e-mail it received (the scan decides),
 *   threaded (`Re:`, In-Reply-To, References) so the conversation continues;
 * - else a new e-mail to the pool mailbox on another domain it wrote to least today.
 * Limits: at most the ramp-up target of the day (rampTarget), and the mailbox's daily limit
 * counts its campaign, unibox and warmup sends together. Campaign sends keep priority: a mailbox
 * one of whose ACTIVE campaigns has a lead due inside the sending window is left to the campaign
 * scheduler for now. A warmup send takes the mailbox like a campaign send (a row lock with SKIP
 * LOCKED, then its sending gap with jitter), so the two never send at once from one mailbox.
 * A tick decides every mailbox's e-mail first, in order, then sends them WARMUP_SEND_CONCURRENCY
 * at a time: one slow or silent server holds up its own mailbox, not the pool's other mailboxes.
 */
import { newId } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { domainOf, type SendOutcome } from '../shared/mail-sender';
import { threadHeaders } from '../shared/mail-threading';
import { newWarmupCode } from '../shared/warmup-code';
import { dayBounds } from '../shared/zoned-time';
import { mapLimit } from '../shared/map-limit';
import { MailboxOAuthRevokedError, MailboxTokenUnavailableError, withMailboxLogin } from '../email-account/index';
import { isWithinWindow, sendingGapWithJitter, type CampaignSchedule } from '../sending/index';
import { customWords, warmupContent } from './warmup-content.rules';
import { DAY_MS, MAX_THREAD_DEPTH, pickRecipient, poolFor, rampTarget, type PoolMailbox } from './warmup-pool.rules';
import { CAMPAIGN_DEMAND_SQL, CLAIM_WARMUP_SEND_SQL, DAY_COUNTS_SQL, PENDING_REPLIES_SQL, POOL_SQL, RECEIVED_SQL, SENT_TO_SQL } from './warmup.queries';
import { recipientProvider } from './warmup-provider.service';

export interface PoolRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  email: string;
  first_name: string;
  last_name: string;
  daily_limit: number;
  sending_gap: number;
  next_send_allowed_at: Date | null;
  smtp_host: string;
  smtp_port: number;
  smtp_username: string;
  smtp_password_enc: string;
  auth_type: string;
  updated_at: Date;
  warmup_limit: number;
  warmup_increment: number;
  warmup_custom_words: string;
  warmup_signature: string;
  warmup_started_at: Date | null;
  timezone: string;
  warmup_shared_pool: boolean;
}

interface ReplyRow {
  id: string;
  recipient_account_id: string;
  sender_account_id: string;
  message_id: string;
  thread_id: string;
  references: string;
  subject: string;
  depth: number;
}

export interface WarmupSendResult {
  /** Pool mailboxes looked at. */
  pool: number;
  sent: number;
  replies: number;
  failed: number;
  /** Mailboxes left to their campaigns this tick. */
  campaignFirst: number;
}

/**
 * How many warmup e-mails of a tick are sent at once (each from its own mailbox). Sent one after
 * another, a tick of 1,000 mailboxes took 4-7 s against a local server (bench `warmup`), and a
 * server taking a second to answer, or one not answering until its timeout, would have held every
 * later mailbox of the pool for as long.
 */
export const WARMUP_SEND_CONCURRENCY = 8;

/**
 * Runs one sending tick of warmup at the injected clock's now. `organizationIds`: only these
 * organizations' mailboxes (tests); `concurrency`: WARMUP_SEND_CONCURRENCY when absent.
 */
export async function runWarmupSendTick(options: { deps: ServiceDeps; sharedPool?: boolean; organizationIds?: string[]; concurrency?: number }): Promise<WarmupSendResult> {
  const { deps } = options;
  const db = deps.db;
  const now = deps.ports.clock.now();
  const result: WarmupSendResult = { pool: 0, sent: 0, replies: 0, failed: 0, campaignFirst: 0 };
  const rows = await db.$queryRawUnsafe<PoolRow[]>(POOL_SQL, options.organizationIds ?? null);
  result.pool = rows.length;
  if (!rows.length) return result;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const pool: PoolMailbox[] = rows.map((r) => ({ id: r.id, organizationId: r.organization_id, email: r.email, sharedPool: r.warmup_shared_pool }));

  // Who may send now: started, free, under its ramp-up target and its daily limit, no campaign waiting for it.
  const free = rows.filter((r) => r.warmup_started_at && (!r.next_send_allowed_at || r.next_send_allowed_at <= now));
  if (!free.length) return result;
  const days = new Map<string, Date>();
  const dayStart = (tz: string) => days.get(tz) ?? days.set(tz, dayBounds({ timezone: tz, at: now }).start).get(tz)!;
  const ids = free.map((r) => r.id);
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const [counts, demand, replies, sentTo, received] = await Promise.all([
    db.$queryRawUnsafe<{ id: string; other_today: number; warmup_today: number }[]>(DAY_COUNTS_SQL, ids, free.map((r) => dayStart(r.timezone).toISOString())),
    db.$queryRawUnsafe<{ email_account_id: string; schedule: Omit<CampaignSchedule, 'startDate' | 'endDate'> | null; start_date: string | null; end_date: string | null }[]>(
      CAMPAIGN_DEMAND_SQL,
      ids,
      now.toISOString(),
    ),
    db.$queryRawUnsafe<ReplyRow[]>(PENDING_REPLIES_SQL, ids),
    db.$queryRawUnsafe<{ sender_account_id: string; recipient_account_id: string; n: number }[]>(SENT_TO_SQL, ids, dayAgo),
    db.$queryRawUnsafe<{ recipient_account_id: string; n: number }[]>(RECEIVED_SQL, rows.map((r) => r.id), dayAgo),
  ]);
  const receivedToday = new Map(received.map((r) => [r.recipient_account_id, r.n]));
  const countOf = new Map(counts.map((c) => [c.id, c]));
  const busy = new Set(
    demand.filter((d) => d.schedule && isWithinWindow({ schedule: { ...d.schedule, startDate: d.start_date, endDate: d.end_date }, at: now })).map((d) => d.email_account_id),
  );
  const replyOf = new Map<string, ReplyRow>();
  for (const r of replies) if (!replyOf.has(r.recipient_account_id)) replyOf.set(r.recipient_account_id, r);
  const sentToOf = new Map<string, Map<string, number>>();
  for (const s of sentTo) (sentToOf.get(s.sender_account_id) ?? sentToOf.set(s.sender_account_id, new Map()).get(s.sender_account_id)!).set(s.recipient_account_id, s.n);

  const providers = new Map<string, Promise<string>>();
  const providerOf = (email: string) => {
    const domain = domainOf(email);
    let p = providers.get(domain);
    if (!p) providers.set(domain, (p = recipientProvider({ dns: deps.ports.dns, domain })));
    return p;
  };

  // Each sender's e-mail, decided in order: a recipient chosen counts as receiving it at once, so
  // that the senders after spread over the pool as if it had been sent.
  const planned: { sender: PoolRow; to: { id: string; email: string; first_name: string }; reply: ReplyRow | null }[] = [];
  for (const sender of free) {
    if (busy.has(sender.id)) {
      result.campaignFirst += 1;
      continue;
    }
    const c = countOf.get(sender.id) ?? { other_today: 0, warmup_today: 0 };
    const target = rampTarget({ startedAt: sender.warmup_started_at!, now, limit: sender.warmup_limit, increment: sender.warmup_increment });
    if (c.warmup_today >= target || c.other_today + c.warmup_today >= sender.daily_limit) continue;
    const reply = replyOf.get(sender.id);
    let to: { id: string; email: string; first_name: string } | undefined;
    if (reply) {
      const original = byId.get(reply.sender_account_id);
      to = original ?? (await db.emailAccount.findUnique({ where: { id: reply.sender_account_id }, select: { id: true, email: true, firstName: true } }).then((r) => (r ? { id: r.id, email: r.email, first_name: r.firstName } : undefined)));
    } else {
      const candidates = poolFor({ sender: pool.find((p) => p.id === sender.id)!, pool, sharedPool: options.sharedPool ?? false });
      const picked = pickRecipient({ candidates, sentTodayTo: sentToOf.get(sender.id) ?? new Map(), receivedToday, seed: `${sender.id}:${now.toISOString()}` });
      const row = picked ? byId.get(picked.id) : undefined;
      to = row;
    }
    if (!to) continue;
    planned.push({ sender, to, reply: reply ?? null });
    receivedToday.set(to.id, (receivedToday.get(to.id) ?? 0) + 1);
    if (!reply) {
      const m = sentToOf.get(sender.id) ?? sentToOf.set(sender.id, new Map()).get(sender.id)!;
      m.set(to.id, (m.get(to.id) ?? 0) + 1);
    }
  }

  // Sent `concurrency` at a time. A failure other than the server's answer (the database) fails
  // the tick, as it did sending one after another, once the sends under way are done (mapLimit).
  const outcomes = await mapLimit({
    items: planned,
    limit: options.concurrency ?? WARMUP_SEND_CONCURRENCY,
    fn: async ({ sender, to, reply }) => sendOne({ deps, now, sender, to, reply, provider: await providerOf(to.email) }),
  });
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome === 'sent') {
      result.sent += 1;
      if (planned[i]!.reply) result.replies += 1;
    } else if (outcome === 'failed') result.failed += 1;
  }
  return result;
}

/** Claims the sender, records the warmup e-mail, sends it; undoes the record when the server did not take it. */
async function sendOne(options: {
  deps: ServiceDeps;
  now: Date;
  sender: PoolRow;
  to: { id: string; email: string; first_name: string };
  reply: ReplyRow | null;
  provider: string;
}): Promise<'sent' | 'skipped' | 'failed'> {
  const { deps, now, sender, to, reply } = options;
  const db = deps.db;
  const id = newId();
  const code = newWarmupCode();
  const messageId = `${id}.${code}@${domainOf(sender.email)}`;
  const fromName = `${sender.first_name} ${sender.last_name}`.trim();
  const content = warmupContent({
    code,
    fromName: sender.first_name || fromName,
    toName: to.first_name,
    customWords: customWords(sender.warmup_custom_words),
    signature: sender.warmup_signature,
    reply: reply ? { subject: reply.subject } : undefined,
  });
  const previous = reply ? [...reply.references.split(/\s+/).filter(Boolean), reply.message_id] : [];
  const threading = threadHeaders({ previousMessageIds: previous });
  const claimed = await db.$queryRawUnsafe<{ id: string }[]>(
    CLAIM_WARMUP_SEND_SQL,
    sender.id,
    now.toISOString(),
    reply?.id ?? null,
    id,
    sender.organization_id,
    sender.workspace_id,
    to.id,
    code,
    messageId,
    reply ? reply.thread_id : messageId,
    reply ? reply.message_id : null,
    previous.join(' '),
    content.subject,
    reply ? Math.min(MAX_THREAD_DEPTH, reply.depth + 1) : 0,
    options.provider,
    // As the scheduler sets it: raw, so `updated_at` (which names the mailbox's SMTP pool) stays.
    new Date(now.getTime() + sendingGapWithJitter({ gapMinutes: sender.sending_gap, seed: id })).toISOString(),
  );
  if (!claimed.length) return 'skipped';
  let outcome: SendOutcome;
  try {
    outcome = await withMailboxLogin({
      deps,
      mailbox: { id: sender.id, authType: sender.auth_type, host: sender.smtp_host, port: sender.smtp_port, username: sender.smtp_username, passwordEnc: sender.smtp_password_enc },
      attempt: (smtp) =>
        deps.ports.smtp.send({
          mailboxId: sender.id,
          version: sender.updated_at.toISOString(),
          smtp,
          message: {
            from: { name: fromName, address: sender.email },
            to: to.email,
            subject: content.subject,
            html: null,
            text: content.text,
            messageId,
            ...threading,
          },
        }),
      refused: (r) => r.status === 'auth',
    });
  } catch (error) {
    const message = error instanceof MailboxOAuthRevokedError || error instanceof MailboxTokenUnavailableError ? error.message : `cannot log in: ${(error as Error).message}`;
    outcome = { status: 'deferred', code: null, message };
  }
  if (outcome.status === 'sent') return 'sent';
  // Not sent: forget it (it never counts), and an answer waits for the next chance.
  await db.$transaction([
    db.warmupMessage.deleteMany({ where: { id } }),
    ...(reply ? [db.warmupMessage.updateMany({ where: { id: reply.id, repliedAt: now }, data: { repliedAt: null } })] : []),
  ]);
  deps.log.warn({ mailbox: sender.email, to: to.email, status: outcome.status, reason: outcome.message }, 'warmup e-mail not sent');
  return 'failed';
}
