import { Badge } from '@mantine/core';
import type { ResultOf } from '../../graphql/graphql';
import { graphql } from '../../graphql/graphql';

const StatusProbe = graphql(`
  fragment CampaignStatusProbe on Campaign @_unmask { status }
`);
export type CampaignStatus = ResultOf<typeof StatusProbe>['status'];

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  DRAFT: 'Draft',
  ACTIVE: 'Active',
  PAUSED: 'Paused',
  COMPLETED: 'Completed',
  ARCHIVED: 'Archived',
};
export const STATUS_COLORS: Record<CampaignStatus, string> = { DRAFT: 'gray', ACTIVE: 'green', PAUSED: 'yellow', COMPLETED: 'blue', ARCHIVED: 'dark' };

export function StatusBadge(props: { status: CampaignStatus }) {
  return (
    <Badge color={STATUS_COLORS[props.status]} variant="light">
      {STATUS_LABELS[props.status]}
    </Badge>
  );
}
