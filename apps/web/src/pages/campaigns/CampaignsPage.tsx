// Screen 1: the workspace's campaigns, with their status and the day's counts; create,
// launch/pause, duplicate and archive.
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Button, Group, Menu, Modal, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../../graphql/graphql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import { STATUS_COLORS, STATUS_LABELS, type CampaignStatus } from './campaign-status';
import { StatusTag } from '../../components/StatusTag';
import table from '../../components/DataTable.module.css';
import { CampaignsQuery, campaignsVariables, firstReadPolicy, PAGE } from './campaigns.graphql';

type CampaignRow = NonNullable<ResultOf<typeof CampaignsQuery>['workspace']>['campaigns']['edges'][number]['node'];

const CreateCampaign = graphql(`
  mutation CreateCampaign($workspaceId: ID!, $name: String!) {
    createCampaign(workspaceId: $workspaceId, name: $name) { id }
  }
`);
const LaunchCampaign = graphql(`
  mutation LaunchCampaign($workspaceId: ID!, $id: ID!) {
    launchCampaign(workspaceId: $workspaceId, id: $id) { id status }
  }
`);
const PauseCampaign = graphql(`
  mutation PauseCampaign($workspaceId: ID!, $id: ID!) {
    pauseCampaign(workspaceId: $workspaceId, id: $id) { id status }
  }
`);
const DuplicateCampaign = graphql(`
  mutation DuplicateCampaign($workspaceId: ID!, $id: ID!, $name: String!) {
    duplicateCampaign(workspaceId: $workspaceId, id: $id, name: $name) { id name }
  }
`);
const ArchiveCampaign = graphql(`
  mutation ArchiveCampaign($workspaceId: ID!, $id: ID!) {
    archiveCampaign(workspaceId: $workspaceId, id: $id) { id status }
  }
`);

const number = new Intl.NumberFormat();

export default function CampaignsPage() {
  const workspaceId = useWorkspaceId();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const navigate = useNavigate();
  const [status, setStatus] = useState<CampaignStatus | null>(null);
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const [first, setFirst] = useState(PAGE);
  const [policy] = useState(() => firstReadPolicy(workspaceId));
  const [list, refetch] = useQuery({ query: CampaignsQuery, variables: campaignsVariables(workspaceId, { status, name, first }), requestPolicy: policy });
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const [newName, setNewName] = useState('');
  const [created, create] = useMutation(CreateCampaign);
  const createProblem = problemOf(created.error);

  const [archiving, setArchiving] = useState<CampaignRow | null>(null);
  const [, launch] = useMutation(LaunchCampaign);
  const [, pause] = useMutation(PauseCampaign);
  const [, duplicate] = useMutation(DuplicateCampaign);
  const [archived, archive] = useMutation(ArchiveCampaign);

  const submitCreate = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ workspaceId, name: newName });
    const id = answer.data?.createCampaign?.id;
    if (id) {
      closeCreate();
      setNewName('');
      navigate(`/campaigns/${id}`);
    }
  };

  /** Runs an action of a row, and says in words what happened. */
  const act = async (what: string, run: () => Promise<{ error?: Parameters<typeof problemOf>[0] }>) => {
    const answer = await run();
    const problem = problemOf(answer.error);
    if (problem) notifications.show({ color: 'red', title: `Could not ${what}`, message: problem.message });
    else notifications.show({ color: 'green', message: `Done: ${what}` });
    reload();
    return !problem;
  };

  const rows = list.data?.workspace?.campaigns.edges.map((e) => e.node) ?? [];
  const total = list.data?.workspace?.campaigns.totalCount;
  const listProblem = problemOf(list.error);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Campaigns</Title>
        {canEdit && <Button onClick={openCreate}>New campaign</Button>}
      </Group>

      <Group align="flex-end" gap="sm">
        <TextInput label="Search by name" placeholder="Campaign name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={{ base: '100%', xs: 260 }} type="search" />
        <Select
          label="Status"
          data={[{ value: 'ALL', label: 'All statuses' }, ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label }))]}
          value={status ?? 'ALL'}
          onChange={(value) => setStatus(!value || value === 'ALL' ? null : (value as CampaignStatus))}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>

      {listProblem && <ProblemAlert problem={listProblem} title="The campaigns could not be read" />}
      {list.fetching && !list.data ? (
        <Loading label="Loading campaigns…" />
      ) : !rows.length && !listProblem ? (
        <Stack align="flex-start" gap="xs" py="lg">
          <Text fw={600}>{name || status ? 'No campaign matches these filters.' : 'No campaigns yet.'}</Text>
          <Text c="dimmed">{name || status ? 'Change the search or the status.' : 'Create one to write its sequence, choose its mailboxes and launch it.'}</Text>
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <table className={table.table} aria-label="Campaigns">
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th className={table.num}>Leads</th>
                <th className={table.num}>Sent today</th>
                <th className={table.num}>Sent</th>
                <th className={table.num}>Replies</th>
                <th className={table.num}>Open rate</th>
                <th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id} className={table.row}>
                  <td>
                    <Link to={`/campaigns/${c.id}`} className={table.link}>
                      {c.name}
                    </Link>
                  </td>
                  <td>
                    <StatusTag color={STATUS_COLORS[c.status]}>{STATUS_LABELS[c.status]}</StatusTag>
                  </td>
                  <td className={table.num}>{number.format(c.leadCount)}</td>
                  <td className={table.num}>{number.format(c.emailSentToday)}</td>
                  <td className={table.num}>{number.format(c.sentCount)}</td>
                  <td className={table.num}>{number.format(c.repliedCount)}</td>
                  <td className={table.num}>{c.openRate.toFixed(1)} %</td>
                  <td>
                    {canEdit && (
                      <RowActions
                        campaign={c}
                        onPause={() => act(`pause ${c.name}`, () => pause({ workspaceId, id: c.id }))}
                        onLaunch={() => act(`launch ${c.name}`, () => launch({ workspaceId, id: c.id }))}
                        onDuplicate={() => act(`duplicate ${c.name}`, () => duplicate({ workspaceId, id: c.id, name: `${c.name} (copy)` }))}
                        onArchive={() => setArchiving(c)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Table.ScrollContainer>
      )}
      {list.data?.workspace?.campaigns.pageInfo.hasNextPage && (
        <Button variant="default" onClick={() => setFirst(first + PAGE)} loading={list.fetching} w="fit-content">
          Show more{total != null ? ` (${rows.length} of ${total})` : ''}
        </Button>
      )}

      <Modal opened={creating} onClose={closeCreate} title="New campaign">
        <form onSubmit={submitCreate} noValidate>
          <ProblemAlert problem={createProblem} fields={['name', 'camp_name']} title="Could not create the campaign" />
          <TextInput
            label="Campaign name"
            required
            data-autofocus
            value={newName}
            onChange={(e) => setNewName(e.currentTarget.value)}
            error={fieldProblem(createProblem, 'name', 'camp_name')}
          />
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={closeCreate}>
              Cancel
            </Button>
            <Button type="submit" loading={created.fetching}>
              Create
            </Button>
          </Group>
        </form>
      </Modal>

      <Modal opened={archiving !== null} onClose={() => setArchiving(null)} title="Archive the campaign?">
        <Stack>
          <Text>
            “{archiving?.name}” stops sending and is kept with its leads and statistics. An archived campaign cannot be launched or edited again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setArchiving(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={archived.fetching}
              onClick={async () => {
                const c = archiving!;
                if (await act(`archive ${c.name}`, () => archive({ workspaceId, id: c.id }))) setArchiving(null);
              }}
            >
              Archive
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/**
 * A row's actions: a plain button until it is first used, then the menu (opened at once, and kept
 * so the button it returns the focus to stays the same). Fifty rows with a menu each mounted fifty
 * positioning hooks and popovers, a third of the screen's first render.
 */
function RowActions(props: { campaign: CampaignRow; onPause: () => void; onLaunch: () => void; onDuplicate: () => void; onArchive: () => void }) {
  const c = props.campaign;
  const [mounted, setMounted] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const button = (
    <ActionIcon ref={buttonRef} variant="subtle" aria-label={`Actions for ${c.name}`} aria-haspopup="menu" onClick={mounted ? undefined : () => setMounted(true)}>
      <span aria-hidden>⋯</span>
    </ActionIcon>
  );
  if (!mounted) return button;
  return (
    // Closed, the menu gives the focus back to its button (the first opening replaced the button).
    <Menu position="bottom-end" withinPortal defaultOpened onClose={() => buttonRef.current?.focus()}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={`/campaigns/${c.id}`}>
          Edit
        </Menu.Item>
        {c.status === 'ACTIVE' ? (
          <Menu.Item onClick={props.onPause}>Pause</Menu.Item>
        ) : c.status !== 'ARCHIVED' && c.status !== 'COMPLETED' ? (
          <Menu.Item onClick={props.onLaunch}>Launch</Menu.Item>
        ) : null}
        <Menu.Item onClick={props.onDuplicate}>Duplicate</Menu.Item>
        {c.status !== 'ARCHIVED' && (
          <Menu.Item c="red.9" onClick={props.onArchive}>
            Archive
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
