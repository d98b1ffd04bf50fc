// Screen 5: the workspace's figures over a date range: by day (chart, or table), per campaign
// and per mailbox. A campaign's own figures and its variations are one click away.
import { Link } from 'react-router';
import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { useWorkspaceId } from '../../shell/Shell';
import { MailboxStatsQuery, WorkspaceAnalyticsQuery } from './analytics.graphql';
import { DailyFigures, type Series } from './DailyFigures';
import { RangePicker, useRange } from './RangePicker';
import { number, percent, StatCards } from './StatCards';

export const WORKSPACE_SERIES: Series[] = [
  { key: 'sent', label: 'sent', color: '#364fc7' },
  { key: 'opens', label: 'opens', color: '#0b7285' },
  { key: 'replies', label: 'replies', color: '#1e6b2f' },
  { key: 'positive', label: 'positive replies', color: '#862e9c' },
  { key: 'bounces', label: 'bounces', color: '#c92a2a' },
];

export default function AnalyticsPage() {
  const workspaceId = useWorkspaceId();
  const { range, search } = useRange();
  const [result, refetch] = useQuery({ query: WorkspaceAnalyticsQuery, variables: { workspaceId, ...range } });
  const problem = problemOf(result.error);
  const data = result.data?.workspace;
  const header = data?.emailStats.header;
  const rows =
    data?.emailStats.chart.map((d) => ({
      date: d.date,
      label: d.label,
      sent: d.totalSentCount,
      opens: d.totalOpenCount,
      replies: d.totalReplyCount,
      positive: d.totalPosReplyCount,
      bounces: d.totalBounceCount,
    })) ?? [];

  return (
    <Stack gap="lg">
      <Title order={1}>Analytics</Title>
      <RangePicker />
      {problem && (
        <Stack gap="xs">
          <ProblemAlert problem={problem} title="The figures could not be read" />
          <Button variant="default" w="fit-content" onClick={() => refetch({ requestPolicy: 'network-only' })}>
            Try again
          </Button>
        </Stack>
      )}
      {result.fetching && !data ? (
        <Loading label="Loading the figures…" />
      ) : data && header ? (
        <>
          <StatCards
            label="Totals of the range"
            stats={[
              { label: 'Sent', value: number.format(header.totalSentCount) },
              { label: 'Leads contacted', value: number.format(header.totalContactedCount) },
              { label: 'Open rate', value: percent(header.openRate) },
              { label: 'Reply rate', value: percent(header.replyRate) },
              { label: 'Positive replies', value: number.format(header.totalPosReplyCount) },
              { label: 'Bounce rate', value: percent(header.bounceRate) },
            ]}
          />
          <DailyFigures title="Workspace sends by day" rows={rows} series={WORKSPACE_SERIES} />

          <Stack gap="xs">
            <Title order={2} size="h3">
              Campaigns
            </Title>
            {!data.campaignPerformance.length ? (
              <Text c="dimmed">No campaign sent anything in this range.</Text>
            ) : (
              <TableScroll minWidth={760} label="Campaign figures">
                <Table striped highlightOnHover aria-label="Campaign figures">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Campaign</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th ta="right">Sent</Table.Th>
                      <Table.Th ta="right">Contacted</Table.Th>
                      <Table.Th ta="right">Opened</Table.Th>
                      <Table.Th ta="right">Replied</Table.Th>
                      <Table.Th ta="right">Positive</Table.Th>
                      <Table.Th ta="right">Bounced</Table.Th>
                      <Table.Th ta="right">Reply rate</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.campaignPerformance.map((c) => (
                      <Table.Tr key={c.campaignId}>
                        <Table.Td>
                          <Anchor component={Link} to={`/analytics/campaigns/${c.campaignId}${search}`} fw={600}>
                            {c.campaignName}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>
                          <Badge variant="light" color="gray">
                            {c.status.toLowerCase()}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right">{number.format(c.sent)}</Table.Td>
                        <Table.Td ta="right">{number.format(c.contacted)}</Table.Td>
                        <Table.Td ta="right">{number.format(c.opened)}</Table.Td>
                        <Table.Td ta="right">{number.format(c.replied)}</Table.Td>
                        <Table.Td ta="right">{number.format(c.positiveReplies)}</Table.Td>
                        <Table.Td ta="right">{number.format(c.bounced)}</Table.Td>
                        <Table.Td ta="right">{percent(c.replyRate)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </TableScroll>
            )}
          </Stack>
        </>
      ) : null}
      <MailboxFigures workspaceId={workspaceId} range={range} />
    </Stack>
  );
}

/** Each mailbox's figures over the range, a hundred at a time. */
function MailboxFigures(props: { workspaceId: string; range: { startDate: string; endDate: string } }) {
  const [page, setPage] = useState(1);
  const [result] = useQuery({ query: MailboxStatsQuery, variables: { workspaceId: props.workspaceId, ...props.range, page } });
  const problem = problemOf(result.error);
  const bulk = result.data?.workspace?.emailStatsBulk;
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        Mailboxes
      </Title>
      {problem && <ProblemAlert problem={problem} title="The mailbox figures could not be read" />}
      {result.fetching && !bulk ? (
        <Loading label="Loading the mailbox figures…" />
      ) : !bulk ? null : !bulk.accounts.length ? (
        <Text c="dimmed">This workspace has no mailbox yet.</Text>
      ) : (
        <>
          <TableScroll minWidth={720} label="Mailbox figures">
            <Table striped aria-label="Mailbox figures">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Mailbox</Table.Th>
                  <Table.Th ta="right">Sent</Table.Th>
                  <Table.Th ta="right">Opens</Table.Th>
                  <Table.Th ta="right">Replies</Table.Th>
                  <Table.Th ta="right">Positive</Table.Th>
                  <Table.Th ta="right">Bounces</Table.Th>
                  <Table.Th ta="right">Reply rate</Table.Th>
                  <Table.Th ta="right">Bounce rate</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {bulk.accounts.map((a) => (
                  <Table.Tr key={a.emailAccountId}>
                    <Table.Td>{a.email}</Table.Td>
                    <Table.Td ta="right">{number.format(a.header.totalSentCount)}</Table.Td>
                    <Table.Td ta="right">{number.format(a.header.totalOpenCount)}</Table.Td>
                    <Table.Td ta="right">{number.format(a.header.totalReplyCount)}</Table.Td>
                    <Table.Td ta="right">{number.format(a.header.totalPosReplyCount)}</Table.Td>
                    <Table.Td ta="right">{number.format(a.header.totalBounceCount)}</Table.Td>
                    <Table.Td ta="right">{percent(a.header.replyRate)}</Table.Td>
                    <Table.Td ta="right">{percent(a.header.bounceRate)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
          {(page > 1 || bulk.hasMore) && (
            <Group gap="sm">
              <Button variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
                Previous mailboxes
              </Button>
              <Text size="sm">
                Page {page} of {Math.ceil(bulk.totalAccounts / 100)}
              </Text>
              <Button variant="default" disabled={!bulk.hasMore} onClick={() => setPage(page + 1)}>
                Next mailboxes
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
