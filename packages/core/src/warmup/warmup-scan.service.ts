/**
 * The receiving side of warmup (docs/api.md, "Warmup"): a pool mailbox that has warmup mail on
 * its way (or placed mail due for archiving) is scanned over IMAP, at most every SCAN_EVERY_MS:
 * INBOX, its \Junk folder (folders named Spam/Junk/Bulk where none has the flag) and a
 * Promotions folder. Each warmup e-mail is recognised by the code in its body; where it landed
 * is recorded (INBOX, SPAM, PROMOTIONS); it is marked read and flagged; one found in spam is
 * moved back to INBOX; the mailbox decides to answer it under its reply rate (the send tick
 * sends the answer); warmup mail placed ARCHIVE_AFTER_MS ago is deleted. Mail not found
 * MISSING_AFTER_MS after it was sent is MISSING. The reply reader never takes warmup mail for
 * a reply (replies/ingest.service.ts).
 */
import { simpleParser } from 'mailparser';
import type { ServiceDeps } from '../shared/context';
import { mapLimit } from '../shared/map-limit';
import { MailLoginError } from '../shared/mail-verifier';
import { warmupCodeCandidates } from '../shared/warmup-code';
import { createWarmupMailbox, type FolderKind, type WarmupMailbox } from '../shared/warmup-mailbox';
import { withMailboxLogin } from '../email-account/index';
import { answers, DAY_MS, MAX_THREAD_DEPTH } from './warmup-pool.rules';
import { APPLY_SCAN_SQL, CLAIM_SCAN_SQL, MARK_MISSING_SQL, PLACED_COUNT_SQL, SCAN_ROWS_SQL, TO_SCAN_SQL } from './warmup.queries';

/** A mailbox is scanned at most this often. */
export const SCAN_EVERY_MS = 5 * 60_000;
/** Mail is looked for once it had this long to arrive. */
export const ARRIVAL_DELAY_MS = 60_000;
/** Not found after this long: MISSING. */
export const MISSING_AFTER_MS = DAY_MS;
/** Placed warmup mail is deleted after this long. */
export const ARCHIVE_AFTER_MS = 3 * DAY_MS;
/** Messages read per folder and scan, newest first. */
const MAX_PER_FOLDER = 500;

interface ScanMailbox {
  id: string;
  email: string;
  workspace_id: string;
  imap_host: string;
  imap_port: number;
  imap_username: string;
  imap_password_enc: string;
  auth_type: string;
  warmup_reply_rate: number;
}

interface ScanRow {
  id: string;
  code: string;
  sent_at: Date;
  placement: string;
  depth: number;
}

export interface WarmupScanResult {
  scanned: number;
  placed: number;
  rescued: number;
  archived: number;
  missing: number;
  failed: number;
}

interface Found {
  id: string;
  placement: FolderKind | null;
  folder: string | null;
  rescued: boolean;
  reply: boolean;
  archived: boolean;
}

async function textOf(raw: Buffer): Promise<string> {
  try {
    const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
    return `${parsed.text ?? ''}\n${typeof parsed.html === 'string' ? parsed.html : ''}`;
  } catch {
    return raw.toString('utf8');
  }
}

/** Scans one mailbox in a session; returns what to record. */
async function scanOne(options: { deps: ServiceDeps; port: WarmupMailbox; mailbox: ScanMailbox; now: Date }): Promise<Found[]> {
  const { deps, port, mailbox, now } = options;
  const rows = await deps.db.$queryRawUnsafe<ScanRow[]>(SCAN_ROWS_SQL, mailbox.id, new Date(now.getTime() - ARCHIVE_AFTER_MS).toISOString());
  if (!rows.length) return [];
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const [{ n: placedBefore } = { n: 0 }] = await deps.db.$queryRawUnsafe<{ n: number }[]>(PLACED_COUNT_SQL, mailbox.id);
  let index = placedBefore;
  const since = new Date(Math.min(...rows.map((r) => r.sent_at.getTime())) - DAY_MS);
  const found = new Map<string, Found>();
  const attempt = (imap: Parameters<WarmupMailbox['session']>[0]['imap']) =>
    port
      .session({
        imap,
        work: async (session) => {
          for (const folder of await session.folders()) {
            const messages = await session.messagesSince({ folder: folder.path, since, max: MAX_PER_FOLDER });
            const toFlag: number[] = [];
            const toRescue: number[] = [];
            const toRemove: number[] = [];
            for (const m of messages) {
              const row = warmupCodeCandidates(await textOf(m.raw))
                .map((c) => byCode.get(c))
                .find((r): r is ScanRow => r !== undefined);
              if (!row || found.has(row.id)) continue;
              if (row.placement === 'PENDING') {
                const reply = row.depth < MAX_THREAD_DEPTH && answers({ index, replyRate: mailbox.warmup_reply_rate });
                index += 1;
                found.set(row.id, { id: row.id, placement: folder.kind, folder: folder.path, rescued: folder.kind === 'SPAM', reply, archived: false });
                toFlag.push(m.uid);
                if (folder.kind === 'SPAM') toRescue.push(m.uid);
              } else {
                // Placed long enough ago: archived (deleted), wherever it is now.
                found.set(row.id, { id: row.id, placement: null, folder: null, rescued: false, reply: false, archived: true });
                toRemove.push(m.uid);
              }
            }
            await session.addFlags({ folder: folder.path, uids: toFlag, flags: ['\\Seen', '\\Flagged'] });
            await session.moveToInbox({ folder: folder.path, uids: toRescue });
            await session.remove({ folder: folder.path, uids: toRemove });
          }
          return { ok: true as const };
        },
      })
      .catch((error: unknown) => ({ ok: false as const, error }));
  const outcome = await withMailboxLogin({
    deps,
    mailbox: { id: mailbox.id, authType: mailbox.auth_type, host: mailbox.imap_host, port: mailbox.imap_port, username: mailbox.imap_username, passwordEnc: mailbox.imap_password_enc },
    attempt,
    refused: (r) => !r.ok && r.error instanceof MailLoginError && r.error.reason === 'auth',
  });
  if (!outcome.ok) throw outcome.error;
  // Placed mail due for archiving that is gone already (deleted by its owner) is archived too.
  for (const r of rows) if (r.placement !== 'PENDING' && !found.has(r.id)) found.set(r.id, { id: r.id, placement: null, folder: null, rescued: false, reply: false, archived: true });
  return [...found.values()];
}

/** One scanning round: MISSING marks, then up to `maxMailboxes` mailboxes scanned (several at once). */
export async function runWarmupScanTick(options: { deps: ServiceDeps; organizationIds?: string[]; maxMailboxes?: number; concurrency?: number }): Promise<WarmupScanResult> {
  const { deps } = options;
  const db = deps.db;
  const now = deps.ports.clock.now();
  const iso = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const result: WarmupScanResult = { scanned: 0, placed: 0, rescued: 0, archived: 0, missing: 0, failed: 0 };
  result.missing = await db.$executeRawUnsafe(MARK_MISSING_SQL, options.organizationIds ?? null, iso(MISSING_AFTER_MS), now.toISOString());
  const due = await db.$queryRawUnsafe<ScanMailbox[]>(
    TO_SCAN_SQL,
    options.organizationIds ?? null,
    iso(SCAN_EVERY_MS),
    iso(ARRIVAL_DELAY_MS),
    iso(ARCHIVE_AFTER_MS),
    options.maxMailboxes ?? 50,
  );
  const port = deps.ports.warmupImap ?? createWarmupMailbox({ allowPrivateTargets: deps.settings.allowPrivateTargets });
  await mapLimit({
    items: due,
    limit: options.concurrency ?? 4,
    fn: async (mailbox) => {
      const claimed = await db.$queryRawUnsafe<{ id: string }[]>(CLAIM_SCAN_SQL, mailbox.id, iso(SCAN_EVERY_MS), now.toISOString());
      if (!claimed.length) return;
      try {
        const found = await scanOne({ deps, port, mailbox, now });
        if (found.length) await db.$executeRawUnsafe(APPLY_SCAN_SQL, JSON.stringify(found), now.toISOString());
        result.scanned += 1;
        result.placed += found.filter((f) => f.placement).length;
        result.rescued += found.filter((f) => f.rescued).length;
        result.archived += found.filter((f) => f.archived).length;
      } catch (error) {
        result.failed += 1;
        deps.log.warn({ mailbox: mailbox.email, err: error instanceof MailLoginError ? error.message : error }, 'warmup scan failed');
      }
    },
  });
  return result;
}
