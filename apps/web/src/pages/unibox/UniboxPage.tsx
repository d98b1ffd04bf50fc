// Screen 4: the unified inbox. The conversations, newest first, filtered by read state, the lead's
// label, campaign and mailbox, read again every 10 s while the page is visible (a reply shows up
// without a reload); the chosen conversation beside the list (wide screens) or instead of it
// (phones, with a way back); a new e-mail from a chosen mailbox.
import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Badge, Box, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from 'urql';
import { problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import { ChoicesQuery, ThreadsQuery, type ThreadRow } from './unibox.graphql';
import { ThreadView } from './ThreadView';
import { Composer } from './Composer';
import { usePolling } from './usePolling';

const PAGE = 25;
const ANY = 'ANY';
const today = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const earlier = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

function shortTime(iso: string): string {
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString() ? today.format(date) : earlier.format(date);
}

function ThreadItem(props: { thread: ThreadRow; selected: boolean; labelName?: string }) {
  const { thread } = props;
  const who = thread.leadEmail || thread.lastMessage.fromAddressEmail;
  return (
    <UnstyledButton
      component={Link}
      to={`/unibox/${thread.id}`}
      aria-current={props.selected ? 'true' : undefined}
      display="block"
      p="sm"
      w="100%"
      bg={props.selected ? 'indigo.0' : undefined}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={thread.isUnread ? 700 : 500} truncate>
          {who}
        </Text>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {shortTime(thread.lastMessageAt)}
        </Text>
      </Group>
      <Text size="sm" fw={thread.isUnread ? 700 : 400} truncate>
        {thread.subject || '(no subject)'}
      </Text>
      <Text size="sm" c="dimmed" lineClamp={1}>
        {thread.lastMessage.direction === 'OUT' ? 'You: ' : ''}
        {thread.lastMessage.contentPreview}
      </Text>
      {(thread.isUnread || props.labelName) && (
        <Group gap={6} mt={4}>
          {thread.isUnread && (
            <Badge size="sm" variant="light" color="indigo">
              Unread
            </Badge>
          )}
          {props.labelName && (
            <Badge size="sm" variant="light" color="gray">
              {props.labelName}
            </Badge>
          )}
        </Group>
      )}
    </UnstyledButton>
  );
}

export default function UniboxPage() {
  const workspaceId = useWorkspaceId();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const { threadId } = useParams();
  const navigate = useNavigate();
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const [readState, setReadState] = useState<string>(ANY);
  const [leadLabel, setLeadLabel] = useState<string>(ANY);
  const [campaignId, setCampaignId] = useState<string>(ANY);
  const [emailAccountId, setEmailAccountId] = useState<string>(ANY);
  const [first, setFirst] = useState(PAGE);
  const [composing, { open: openCompose, close: closeCompose }] = useDisclosure(false);

  const [choices] = useQuery({ query: ChoicesQuery, variables: { workspaceId } });
  const [list, reexecute] = useQuery({
    query: ThreadsQuery,
    variables: {
      workspaceId,
      first,
      isUnread: readState === ANY ? null : readState === 'UNREAD',
      leadLabel: leadLabel === ANY ? null : leadLabel,
      campaignId: campaignId === ANY ? null : campaignId,
      emailAccountId: emailAccountId === ANY ? null : emailAccountId,
    },
  });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  usePolling(refresh);

  const ws = choices.data?.workspace;
  const labels = ws?.leadLabels ?? [];
  const campaigns = ws?.campaigns.edges.map((e) => e.node) ?? [];
  const mailboxes = ws?.emailAccounts.edges.map((e) => e.node) ?? [];
  const rows = list.data?.uniboxThreads.edges.map((e) => e.node) ?? [];
  const listProblem = problemOf(list.error);
  const filtered = readState !== ANY || leadLabel !== ANY || campaignId !== ANY || emailAccountId !== ANY;
  const labelOf = (t: ThreadRow) => labels.find((l) => l.key === (t.lead ? t.lead.label : t.label))?.name;

  const filters = (
    <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
      <Select label="Show" size="xs" data={[{ value: ANY, label: 'All conversations' }, { value: 'UNREAD', label: 'Unread' }, { value: 'READ', label: 'Read' }]} value={readState} onChange={(v) => setReadState(v ?? ANY)} allowDeselect={false} />
      <Select label="Label" size="xs" data={[{ value: ANY, label: 'Any label' }, ...labels.map((l) => ({ value: l.key, label: l.name }))]} value={leadLabel} onChange={(v) => setLeadLabel(v ?? ANY)} allowDeselect={false} />
      <Select label="Campaign" size="xs" searchable data={[{ value: ANY, label: 'Any campaign' }, ...campaigns.map((c) => ({ value: c.id, label: c.name }))]} value={campaignId} onChange={(v) => setCampaignId(v ?? ANY)} allowDeselect={false} />
      <Select label="Mailbox" size="xs" searchable data={[{ value: ANY, label: 'Any mailbox' }, ...mailboxes.map((m) => ({ value: m.id, label: m.email }))]} value={emailAccountId} onChange={(v) => setEmailAccountId(v ?? ANY)} allowDeselect={false} />
    </SimpleGrid>
  );

  const listPane = (
    <Stack gap="sm">
      {filters}
      {choices.error && <ProblemAlert problem={problemOf(choices.error)} title="The filters' choices could not be read" />}
      {listProblem && <ProblemAlert problem={listProblem} title="The conversations could not be read" />}
      {list.fetching && !list.data ? (
        <Loading label="Loading conversations…" />
      ) : !rows.length && !listProblem ? (
        <Stack gap={4} py="lg">
          <Text fw={600}>{filtered ? 'No conversation matches these filters.' : 'No conversations yet.'}</Text>
          <Text c="dimmed" size="sm">
            {filtered ? 'Change the filters to see more.' : 'Replies to your campaigns appear here as they arrive.'}
          </Text>
        </Stack>
      ) : (
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
          <Box component="ul" aria-label="Conversations" m={0} p={0} style={{ listStyle: 'none' }}>
            {rows.map((t) => (
              <li key={t.id}>
                <ThreadItem thread={t} selected={t.id === threadId} labelName={labelOf(t)} />
              </li>
            ))}
          </Box>
        </Paper>
      )}
      {list.data?.uniboxThreads.pageInfo.hasNextPage && (
        <Button variant="default" onClick={() => setFirst(first + PAGE)} loading={list.fetching} w="fit-content">
          Show more
        </Button>
      )}
    </Stack>
  );

  const threadPane = threadId ? (
    <ThreadView key={threadId} workspaceId={workspaceId} threadId={threadId} labels={labels} canEdit={canEdit} back={!wide} onChanged={refresh} />
  ) : (
    <Text c="dimmed" py="xl" ta="center">
      Choose a conversation to read it.
    </Text>
  );

  return (
    <Stack gap="md">
      {(wide || !threadId) && (
        <Group justify="space-between" align="flex-end">
          <Title order={1}>Unibox</Title>
          {canEdit && <Button onClick={openCompose}>New e-mail</Button>}
        </Group>
      )}
      {wide ? (
        <Group align="flex-start" gap="lg" wrap="nowrap">
          <Box w={380} style={{ flexShrink: 0 }}>
            {listPane}
          </Box>
          <Box style={{ flex: 1, minWidth: 0 }} component="section" aria-label="Conversation">
            {threadPane}
          </Box>
        </Group>
      ) : threadId ? (
        <Box component="section" aria-label="Conversation">
          {threadPane}
        </Box>
      ) : (
        listPane
      )}

      <Modal opened={composing} onClose={closeCompose} title="New e-mail" size="lg">
        <Composer
          mode="new"
          workspaceId={workspaceId}
          mailboxes={mailboxes}
          onCancel={closeCompose}
          onSent={(id) => {
            closeCompose();
            notifications.show({ color: 'green', message: 'Your e-mail is sent.' });
            refresh();
            navigate(`/unibox/${id}`);
          }}
        />
      </Modal>
    </Stack>
  );
}
