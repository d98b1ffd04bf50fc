// Screen 3: the workspace's mailboxes with their status, health (and what lowered it), warmup and
// today's sends against the daily limit; add one or many, connect Google or Microsoft mailboxes
// (when the installation has their OAuth client), pause/resume, warmup on/off, reconnect, delete;
// and the DNS vitals of their domains.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ActionIcon, Anchor, Button, Group, Menu, Modal, Select, Stack, Switch, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue, useDisclosure, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import { DeleteMailbox, MailboxesQuery, Reconnect, SetSending, SetWarmup, StartGoogle, StartMicrosoft, type Mailbox } from './mailboxes.graphql';
import { act, HealthBadge, HealthReasons, MailboxStatusBadge, STATUS_LABELS } from './mailbox-parts';
import { AddMailboxForm } from './AddMailboxForm';
import { BulkAddMailboxes } from './BulkAddMailboxes';
import { DomainVitals } from './DomainVitals';
import { domainsOf } from './mailbox.rules';

const PAGE = 50;
const CLOSE = { 'aria-label': 'Close the dialog' };
type Status = 'ACTIVE' | 'PAUSED' | 'DISCONNECTED';

export default function MailboxesPage() {
  const workspaceId = useWorkspaceId();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const phone = useMediaQuery('(max-width: 36em)');
  const [status, setStatus] = useState<Status | null>(null);
  const [search, setSearch] = useState('');
  const [email] = useDebouncedValue(search.trim(), 250);
  const [first, setFirst] = useState(PAGE);
  const [list, refetch] = useQuery({ query: MailboxesQuery, variables: { workspaceId, status, email: email || null, first } });
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const [bulk, { open: openBulk, close: closeBulk }] = useDisclosure(false);
  const [deleting, setDeleting] = useState<Mailbox | null>(null);
  const [, setSending] = useMutation(SetSending);
  const [, setWarmup] = useMutation(SetWarmup);
  const [, reconnect] = useMutation(Reconnect);
  const [deleted, remove] = useMutation(DeleteMailbox);
  const [google, startGoogle] = useMutation(StartGoogle);
  const [microsoft, startMicrosoft] = useMutation(StartMicrosoft);

  // Back from a provider's OAuth consent: say what happened, once.
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    const outcome = params.get('status');
    if (!outcome) return;
    if (outcome === 'connected') notifications.show({ color: 'green', message: 'The mailbox is connected.' });
    else notifications.show({ color: 'red', title: 'The mailbox was not connected', message: `The provider's authorization failed (${params.get('error') ?? 'unknown error'}). Try again.` });
    setParams({}, { replace: true });
  }, [params, setParams]);

  const connect = async (run: (vars: { workspaceId: string; redirectAfter: string }) => Promise<{ data?: Record<string, string>; error?: Parameters<typeof problemOf>[0] }>) => {
    const answer = await run({ workspaceId, redirectAfter: `${window.location.origin}/mailboxes` });
    const url = answer.data && Object.values(answer.data)[0];
    if (typeof url === 'string') window.location.assign(url);
    else notifications.show({ color: 'red', title: 'Could not start connecting', message: problemOf(answer.error)?.message ?? 'The server gave no address.' });
  };

  const workspace = list.data?.workspace;
  const rows = workspace?.emailAccounts.edges.map((e) => e.node) ?? [];
  const total = workspace?.emailAccounts.totalCount;
  const listProblem = problemOf(list.error);
  const providers = workspace?.oauthProviders;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Mailboxes</Title>
        {canEdit && (
          <Group gap="xs">
            <Button onClick={openAdd}>Add a mailbox</Button>
            <Button variant="default" onClick={openBulk}>
              Add from CSV
            </Button>
            {providers?.google && (
              <Button variant="default" onClick={() => connect(startGoogle)} loading={google.fetching}>
                Connect Google
              </Button>
            )}
            {providers?.microsoft && (
              <Button variant="default" onClick={() => connect(startMicrosoft)} loading={microsoft.fetching}>
                Connect Microsoft
              </Button>
            )}
          </Group>
        )}
      </Group>

      <Group align="flex-end" gap="sm">
        <TextInput label="Search by address" placeholder="name@domain" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={{ base: '100%', xs: 260 }} type="search" />
        <Select
          label="Status"
          data={[{ value: 'ALL', label: 'All statuses' }, ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label }))]}
          value={status ?? 'ALL'}
          onChange={(value) => setStatus(!value || value === 'ALL' ? null : (value as Status))}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>

      {listProblem && <ProblemAlert problem={listProblem} title="The mailboxes could not be read" />}
      {list.fetching && !list.data ? (
        <Loading label="Loading mailboxes…" />
      ) : !rows.length && !listProblem ? (
        <Stack align="flex-start" gap="xs" py="lg">
          <Text fw={600}>{email || status ? 'No mailbox matches these filters.' : 'No mailboxes yet.'}</Text>
          <Text c="dimmed">{email || status ? 'Change the search or the status.' : 'Add one with its SMTP and IMAP settings, or many from a CSV file.'}</Text>
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label="Mailboxes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Address</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Health</Table.Th>
                <Table.Th>Warmup</Table.Th>
                <Table.Th ta="right">Sent today</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => {
                const counters = m.payload.analytics.dailyCounters;
                const warming = m.warmupStatus === 'ACTIVE';
                return (
                  <Table.Tr key={m.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/mailboxes/${m.id}`} fw={600}>
                        {m.email}
                      </Anchor>
                      {(m.payload.name.firstName || m.payload.name.lastName) && (
                        <Text size="xs" c="dimmed">
                          {`${m.payload.name.firstName} ${m.payload.name.lastName}`.trim()}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <MailboxStatusBadge status={m.status} />
                      {m.lastError && m.status !== 'ACTIVE' && (
                        <Text size="xs" c="red.8" maw={260}>
                          {m.lastError}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td maw={320}>
                      <HealthBadge score={m.payload.analytics.healthScores.healthScore} />
                      <HealthReasons mailbox={m} compact />
                    </Table.Td>
                    <Table.Td>
                      <Switch
                        label={warming ? 'On' : 'Off'}
                        aria-label={`Warmup of ${m.email}`}
                        checked={warming}
                        disabled={!canEdit}
                        onChange={(e) => {
                          const on = e.currentTarget.checked;
                          void act(`${on ? 'start' : 'stop'} the warmup of ${m.email}`, () => setWarmup({ workspaceId, ids: [m.id], warmupStatus: on ? 'ACTIVE' : 'INACTIVE' }), reload);
                        }}
                      />
                      <Text size="xs" c="dimmed">
                        {counters.warmupEmailSentToday} warmup sent today
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      {counters.emailSentToday} / {m.payload.dailyLimit}
                    </Table.Td>
                    <Table.Td>
                      {canEdit && (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" aria-label={`Actions for ${m.email}`}>
                              <span aria-hidden>⋯</span>
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item component={Link} to={`/mailboxes/${m.id}`}>
                              Settings
                            </Menu.Item>
                            {m.status === 'ACTIVE' && (
                              <Menu.Item onClick={() => act(`pause sending from ${m.email}`, () => setSending({ workspaceId, ids: [m.id], status: 'PAUSED' }), reload)}>Pause sending</Menu.Item>
                            )}
                            {m.status === 'PAUSED' && (
                              <Menu.Item onClick={() => act(`resume sending from ${m.email}`, () => setSending({ workspaceId, ids: [m.id], status: 'ACTIVE' }), reload)}>Resume sending</Menu.Item>
                            )}
                            <Menu.Item onClick={() => reconnectOne(m)}>Check the connection</Menu.Item>
                            <Menu.Item c="red.9" onClick={() => setDeleting(m)}>
                              Delete
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {workspace?.emailAccounts.pageInfo.hasNextPage && (
        <Button variant="default" onClick={() => setFirst(first + PAGE)} loading={list.fetching} w="fit-content">
          Show more{total != null ? ` (${rows.length} of ${total})` : ''}
        </Button>
      )}

      {rows.length > 0 && <DomainVitals workspaceId={workspaceId} domains={domainsOf(rows.map((m) => m.email))} />}

      <Modal closeButtonProps={CLOSE} opened={adding} onClose={closeAdd} title="Add a mailbox" size="xl" fullScreen={phone}>
        <AddMailboxForm
          workspaceId={workspaceId}
          onCancel={closeAdd}
          onAdded={(address) => {
            closeAdd();
            notifications.show({ color: 'green', message: `${address} is connected.` });
            reload();
          }}
        />
      </Modal>
      <Modal closeButtonProps={CLOSE} opened={bulk} onClose={closeBulk} title="Add mailboxes from a CSV file" size="xl" fullScreen={phone}>
        <BulkAddMailboxes workspaceId={workspaceId} onDone={reload} onClose={closeBulk} />
      </Modal>
      <Modal closeButtonProps={CLOSE} opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete the mailbox?">
        <Stack>
          <Text>
            {deleting?.email} is removed from its campaigns and stops sending and warming up. Its past sends stay counted in the campaigns’ statistics.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={deleted.fetching}
              onClick={async () => {
                const m = deleting!;
                if (await act(`delete ${m.email}`, () => remove({ workspaceId, email: m.email }), reload)) setDeleting(null);
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );

  /** Checks a mailbox's logins again (resuming it when they pass); an OAuth mailbox goes to its provider. */
  async function reconnectOne(m: Mailbox) {
    const answer = await reconnect({ workspaceId, ids: [m.id] });
    const result = answer.data?.reconnectEmailAccounts[0];
    if (result?.url) return window.location.assign(result.url);
    const problem = problemOf(answer.error);
    if (problem || result?.error) notifications.show({ color: 'red', title: `${m.email} cannot connect`, message: problem?.message ?? result!.error! });
    else notifications.show({ color: 'green', message: `${m.email} is connected.` });
    reload();
  }
}
