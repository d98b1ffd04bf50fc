// Small pieces both mailbox screens show: the status and health badges, what lowered the health
// score, and a helper that runs an action and says in words what happened.
import { Badge, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { problemOf } from '../../graphql/errors';
import { healthReasons } from './mailbox.rules';
import type { Mailbox } from './mailboxes.graphql';

export const STATUS_LABELS: Record<string, string> = { ACTIVE: 'Active', PAUSED: 'Paused', DISCONNECTED: 'Disconnected' };
const STATUS_COLORS: Record<string, string> = { ACTIVE: 'green', PAUSED: 'yellow', DISCONNECTED: 'red' };

export function MailboxStatusBadge(props: { status: string }) {
  return (
    <Badge color={STATUS_COLORS[props.status] ?? 'gray'} variant="light">
      {STATUS_LABELS[props.status] ?? props.status}
    </Badge>
  );
}

export function HealthBadge(props: { score: number }) {
  const color = props.score >= 80 ? 'green' : props.score >= 50 ? 'yellow' : 'red';
  return (
    <Badge color={color} variant="light" title="Health score, 0 to 100">
      {props.score} / 100
    </Badge>
  );
}

/** What lowered the mailbox's health score, in words (nothing when it is whole). */
export function HealthReasons(props: { mailbox: Mailbox; compact?: boolean }) {
  const reasons = healthReasons(props.mailbox.payload.analytics.healthScores.healthInputs);
  if (!reasons.length) return props.compact ? null : <Text size="sm">Nothing lowers its score.</Text>;
  return (
    <List size={props.compact ? 'xs' : 'sm'} spacing={2} aria-label={`What lowers the health of ${props.mailbox.email}`}>
      {reasons.map((r) => (
        <List.Item key={r}>{r}</List.Item>
      ))}
    </List>
  );
}

/** Runs an action, shows what happened in a notification, and answers whether it worked. */
export async function act(what: string, run: () => Promise<{ error?: Parameters<typeof problemOf>[0] }>, done?: () => void): Promise<boolean> {
  const answer = await run();
  const problem = problemOf(answer.error);
  if (problem) notifications.show({ color: 'red', title: `Could not ${what}`, message: problem.message });
  else notifications.show({ color: 'green', message: `Done: ${what}` });
  done?.();
  return !problem;
}

/** YYYY-MM-DD of a day `daysAgo` before today (UTC), as the stats operations take it. */
export function isoDay(daysAgo = 0): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}
