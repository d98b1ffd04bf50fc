// Sending statistics of mailboxes: of the workspace or one mailbox, and per mailbox in bulk.
import { defineOperation } from '../shared/operation';
import { invalidField } from '../shared/errors';
import { utcDayEnd, utcDayStart } from '../shared/time';
import { EmailStatsBulkInput, EmailStatsBulkOutput, EmailStatsInput, EmailStatsOutput, MAX_BULK_STATS_ACCOUNTS } from './email-account.schemas';
import { NO_COUNTS, statsChart, statsHeader, statsRangeProblem } from './email-stats.rules';
import { emailStatsCounts, type RangeCounts } from './email-stats.queries';

const COUNTING =
  'A send counts when its send time falls in `start_date`..`end_date` (inclusive UTC days; `end_date` at most 90 days after `start_date`, so at most 91 days in all: 400 naming `end_date` otherwise); its first open, first reply, bounce and out-of-office answer count on the day it was sent. `total_reply_count` counts sends that got a reply, `total_ooo_reply_count` sends answered by an out-of-office auto-reply (not a reply; a send can have both), `total_contacted_count` distinct leads sent to, `total_completed_count` those of them whose sequence is completed, `total_pos_reply_count` those that replied and carry a positive label (INTERESTED, MEETING_BOOKED, MEETING_COMPLETED, CLOSED). `open_rate`, `reply_rate`, `reply_rate_with_ooo` ((replies + out-of-office) / contacted) and `pos_reply_rate` divide by the contacted leads, `bounce_rate` by the sends; percentages rounded to 2 decimals, 0 when nothing was sent. `chart` has one row per day of the range, zeros included, with `label` ("Mar 05"), `date` and the same `total_*` counts (leads counted distinct within the day, so the days\' contacted leads may add up to more than the header\'s).';

/** The range of an email-stats call, 400 naming `end_date` when it is reversed or too wide. */
function statsRange(input: { start_date: string; end_date: string }) {
  const problem = statsRangeProblem({ start: input.start_date, end: input.end_date });
  if (problem) throw invalidField('end_date', problem);
  return { from: utcDayStart(input.start_date), to: utcDayEnd(input.end_date) };
}

const report = (input: { start_date: string; end_date: string }, counts: RangeCounts | undefined, chart: boolean) => ({
  header: statsHeader(counts?.total ?? NO_COUNTS),
  chart: chart ? statsChart({ start: input.start_date, end: input.end_date, days: counts?.days ?? new Map() }) : [],
});

export const emailStats = defineOperation({
  name: 'emailAccount.emailStats',
  kind: 'query',
  summary: 'Sending statistics of email accounts',
  description: `Sending statistics of the whole workspace, or of one mailbox (\`email_acc_id\`). ${COUNTING}`,
  input: EmailStatsInput,
  output: EmailStatsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const { from, to } = statsRange(input);
    const counts = await emailStatsCounts({ db: ctx.db, workspaceId: input.workspace_id, from, to, accountIds: input.email_acc_id ? [input.email_acc_id] : null, perAccount: false });
    return report(input, counts.get(''), true);
  },
});

export const emailStatsBulk = defineOperation({
  name: 'emailAccount.emailStatsBulk',
  kind: 'query',
  summary: 'Sending statistics per email account',
  description: `The statistics of each mailbox, a page of mailboxes at a time: those of \`email_acc_ids\` (comma-separated, at most ${MAX_BULK_STATS_ACCOUNTS}: 400 naming \`email_acc_ids\` otherwise; ids that are not of the workspace are left out), else every mailbox of the workspace, oldest first (ties by id). \`page\` from 1, \`limit\` 1 to ${MAX_BULK_STATS_ACCOUNTS} (default ${MAX_BULK_STATS_ACCOUNTS}; a larger one is read as ${MAX_BULK_STATS_ACCOUNTS}); \`total_accounts\` counts the mailboxes matched and \`has_more\` says whether a later page holds some. Each account carries \`email_acc_id\`, \`email\`, \`header\` and \`chart\` as \`GET /account/email-stats\` with \`email_acc_id\` answers them; with \`include_chart=false\` (default true) every \`chart\` is empty. ${COUNTING} The page's figures are read in one query.`,
  input: EmailStatsBulkInput,
  output: EmailStatsBulkOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const { from, to } = statsRange(input);
    const where = { workspaceId: input.workspace_id, ...(input.email_acc_ids ? { id: { in: input.email_acc_ids } } : {}) };
    const [total, mailboxes] = await Promise.all([
      ctx.db.emailAccount.count({ where }),
      ctx.db.emailAccount.findMany({
        where,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        skip: (input.page - 1) * input.limit,
        take: input.limit,
        select: { id: true, email: true },
      }),
    ]);
    const counts = mailboxes.length
      ? await emailStatsCounts({ db: ctx.db, workspaceId: input.workspace_id, from, to, accountIds: mailboxes.map((m) => m.id), perAccount: true })
      : new Map<string, RangeCounts>();
    return {
      page: input.page,
      limit: input.limit,
      total_accounts: total,
      has_more: input.page * input.limit < total,
      accounts: mailboxes.map((m) => ({ email_acc_id: m.id, email: m.email, ...report(input, counts.get(m.id), input.include_chart) })),
    };
  },
});
