// A campaign's figures over the range: by day (chart, or table), and each step's variations
// side by side (A/B results), with its lifetime totals.
import { Link, useParams } from 'react-router';
import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from 'urql';
import { problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { useWorkspaceId } from '../../shell/Shell';
import { CampaignAnalyticsQuery } from './analytics.graphql';
import { DailyFigures, type Series } from './DailyFigures';
import { RangePicker, useRange } from './RangePicker';
import { number, StatCards } from './StatCards';

const CAMPAIGN_SERIES: Series[] = [
  { key: 'sent', label: 'sent', color: '#364fc7' },
  { key: 'opens', label: 'opens', color: '#0b7285' },
  { key: 'replies', label: 'replies', color: '#1e6b2f' },
  { key: 'bounces', label: 'bounces', color: '#c92a2a' },
  { key: 'unsubscribes', label: 'unsubscribes', color: '#5f3dc4' },
];

const rate = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)} %` : '–');

export default function CampaignAnalyticsPage() {
  const workspaceId = useWorkspaceId();
  const id = useParams()['id']!;
  const { range, search } = useRange();
  const [result] = useQuery({ query: CampaignAnalyticsQuery, variables: { workspaceId, id, ...range } });
  const problem = problemOf(result.error);
  const campaign = result.data?.campaign;

  const back = (
    <Anchor component={Link} to={`/analytics${search}`} size="sm">
      ← Workspace analytics
    </Anchor>
  );
  if (result.fetching && !result.data) return <Loading label="Loading the campaign's figures…" />;
  if (!campaign) {
    return (
      <Stack gap="md">
        {back}
        <Title order={1}>Campaign analytics</Title>
        {problem ? <ProblemAlert problem={problem} title="The campaign's figures could not be read" /> : <Text>There is no such campaign in this workspace.</Text>}
      </Stack>
    );
  }
  const rows = campaign.dailyStats.map((d) => ({
    date: d.date,
    label: d.date.slice(5),
    sent: d.sentCount,
    opens: d.openedCount,
    replies: d.repliedCount,
    bounces: d.bouncedCount,
    unsubscribes: d.unsubscribedCount,
  }));
  const s = campaign.summary;

  return (
    <Stack gap="lg">
      {back}
      <Title order={1}>{campaign.name}: analytics</Title>
      <RangePicker />
      {problem && <ProblemAlert problem={problem} title="Some figures could not be read" />}
      <StatCards
        label="Totals since the campaign started"
        stats={[
          { label: 'Sent (all time)', value: number.format(s.totalSentEmails) },
          { label: 'Leads contacted', value: number.format(s.contacted) },
          { label: 'Leads who opened', value: number.format(s.leadsWhoRead) },
          { label: 'Leads who replied', value: number.format(s.leadsWhoReplied) },
          { label: 'Positive replies', value: number.format(s.positiveReplyCount) },
          { label: 'Bounced', value: number.format(s.bounced) },
        ]}
      />
      <DailyFigures title="Campaign sends by day" rows={rows} series={CAMPAIGN_SERIES} />

      <Stack gap="xs">
        <Title order={2} size="h3">
          Variations by step
        </Title>
        {!campaign.openTracking && <Text size="sm" c="dimmed">Open tracking is off for this campaign: opens are not counted.</Text>}
        {!campaign.variationStats.length ? (
          <Text c="dimmed">The campaign has no step yet.</Text>
        ) : (
          <TableScroll minWidth={640} label="Variation figures by step">
            <Table striped aria-label="Variation figures by step">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Step</Table.Th>
                  <Table.Th>Variation</Table.Th>
                  <Table.Th ta="right">Sent</Table.Th>
                  <Table.Th ta="right">Opened</Table.Th>
                  <Table.Th ta="right">Replied</Table.Th>
                  <Table.Th ta="right">Positive</Table.Th>
                  <Table.Th ta="right">Reply rate</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {campaign.variationStats.flatMap((step) =>
                  step.variations.map((v) => (
                    <Table.Tr key={`${step.step}-${v.variation}`}>
                      <Table.Td>Step {step.step}</Table.Td>
                      <Table.Td>
                        {v.variation}
                        {v.name !== '-' ? ` · ${v.name}` : ''}{' '}
                        {v.isDeleted ? (
                          <Badge variant="light" color="gray" size="sm">
                            deleted
                          </Badge>
                        ) : !v.isActive ? (
                          <Badge variant="light" color="gray" size="sm">
                            paused
                          </Badge>
                        ) : null}
                      </Table.Td>
                      <Table.Td ta="right">{number.format(v.sent)}</Table.Td>
                      <Table.Td ta="right">{number.format(v.open)}</Table.Td>
                      <Table.Td ta="right">{number.format(v.reply)}</Table.Td>
                      <Table.Td ta="right">{number.format(v.posReply)}</Table.Td>
                      <Table.Td ta="right">{rate(v.reply, v.sent)}</Table.Td>
                    </Table.Tr>
                  )),
                )}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </Stack>
    </Stack>
  );
}
