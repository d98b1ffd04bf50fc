import { Badge } from '@mantine/core';
import { graphql, type ResultOf } from '../../graphql/graphql';

const StatusProbe = graphql(`
  fragment LeadStatusProbe on Lead @_unmask { status }
`);
export type LeadStatus = ResultOf<typeof StatusProbe>['status'];

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  NOT_CONTACTED: 'Not contacted',
  CONTACTED: 'Contacted',
  COMPLETED: 'Completed',
  REPLIED: 'Replied',
  RESCHEDULED: 'Rescheduled',
  UNSUBSCRIBED: 'Unsubscribed',
  BOUNCED: 'Bounced',
  SKIPPED: 'Skipped',
};
/** Each status's colour of the theme. */
export const LEAD_STATUS_COLORS: Record<LeadStatus, string> = {
  NOT_CONTACTED: 'gray',
  CONTACTED: 'blue',
  COMPLETED: 'teal',
  REPLIED: 'green',
  RESCHEDULED: 'yellow',
  UNSUBSCRIBED: 'orange',
  BOUNCED: 'red',
  SKIPPED: 'gray',
};

export function LeadStatusBadge(props: { status: LeadStatus }) {
  return (
    <Badge color={LEAD_STATUS_COLORS[props.status]} variant="light">
      {LEAD_STATUS_LABELS[props.status]}
    </Badge>
  );
}

/** A label key as people read it: its name in the workspace, else the key. */
export function labelName(labels: readonly { key: string; name: string }[] | undefined, key: string | null): string {
  if (!key) return '';
  return labels?.find((l) => l.key === key)?.name ?? key;
}
