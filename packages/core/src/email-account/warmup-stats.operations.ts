// Warmup statistics (docs/api.md, "Warmup"): the vendor's `GET /account/warmup-stats`.
import { defineOperation } from '../shared/operation';
import { invalidField } from '../shared/errors';
import { utcDayEnd, utcDayStart } from '../shared/time';
import { WarmupStatsInput, WarmupStatsOutput } from './email-account.schemas';
import { statsRangeProblem } from './email-stats.rules';
import { warmupStats } from './warmup-stats.queries';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

export const warmupStatsOperation = defineOperation({
  name: 'emailAccount.warmupStats',
  kind: 'query',
  summary: 'Warmup statistics of email accounts',
  description:
    'Warmup statistics of the workspace, or of one mailbox (`email_acc_id`), over `start_date`..`end_date` (inclusive UTC days, both required; `end_date` at most 90 days after `start_date`, 400 naming `end_date` otherwise): `{ emailAcc: { inbox_percent, spam_percent, promotion_percent, google_percent, microsoft_percent, other_percent, total_warmup_sent, total_inboxes, chart_data } }`. A warmup e-mail counts on the UTC day it was sent. `inbox_percent`, `spam_percent` and `promotion_percent` divide the e-mails found in the recipient\'s inbox, spam or promotions folder by those whose placement is known (found, or missing after a day; e-mails still on their way are left out); `google_percent`, `microsoft_percent` and `other_percent` divide the e-mails sent to recipients of each provider (from the MX records of their domain) by `total_warmup_sent`. `total_inboxes` counts the distinct pool mailboxes they went to. Percentages have 2 decimals, 0 without data. `chart_data` has one row per day of the range, zeros included: `{ date, sent, inbox, spam, promotion }`.',
  input: WarmupStatsInput,
  output: WarmupStatsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const problem = statsRangeProblem({ start: input.start_date, end: input.end_date });
    if (problem) throw invalidField('end_date', problem);
    const row = await warmupStats({
      db: ctx.db,
      workspaceId: input.workspace_id,
      accountId: input.email_acc_id ?? null,
      from: utcDayStart(input.start_date),
      to: utcDayEnd(input.end_date),
      first: input.start_date,
      last: input.end_date,
    });
    return {
      emailAcc: {
        inbox_percent: percent(row.inbox, row.placed),
        spam_percent: percent(row.spam, row.placed),
        promotion_percent: percent(row.promotion, row.placed),
        google_percent: percent(row.google, row.sent),
        microsoft_percent: percent(row.microsoft, row.sent),
        other_percent: percent(row.other, row.sent),
        total_warmup_sent: row.sent,
        total_inboxes: row.inboxes,
        chart_data: row.chart_data,
      },
    };
  },
});
