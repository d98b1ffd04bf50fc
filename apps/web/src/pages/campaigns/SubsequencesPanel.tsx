// A parent campaign's subsequences: each with its triggers in words, status, leads and sends;
// create one (it opens in the campaign editor), archive or delete one. On a subsequence's own
// page, `SubsequenceOf` says which parent it belongs to and what enrols leads into it.
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Alert, Anchor, Button, Group, Menu, Modal, MultiSelect, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf, type Problem } from '../../graphql/errors';
import { Loading } from '../../components/Loading';
import { ProblemAlert } from '../../components/ProblemAlert';
import { StatusBadge } from './campaign-status';
import { LABEL_PREFIX, TRIGGER_TYPES, triggerInWords } from './subsequence.rules';
import { ArchiveSubsequence, CreateSubsequence, DeleteSubsequence, SubsequencesQuery, type SubsequenceRow } from './subsequences.graphql';

const number = new Intl.NumberFormat();

/** The problem of a field of the first event, by prefix (`events.0.val.2` is the labels' problem). */
function eventProblem(problem: Problem | undefined, ...prefixes: string[]): string | undefined {
  const found = problem?.fields.find((f) => prefixes.some((p) => f.field === p || f.field.startsWith(`${p}.`)));
  return found ? found.message[0]!.toUpperCase() + found.message.slice(1) : undefined;
}

export function SubsequencesPanel(props: { workspaceId: string; campaignId: string; readOnly: boolean }) {
  const { workspaceId, campaignId, readOnly } = props;
  const navigate = useNavigate();
  const [result, refetch] = useQuery({ query: SubsequencesQuery, variables: { workspaceId, parentId: campaignId } });
  const [creating, { open, close }] = useDisclosure(false);
  const [name, setName] = useState('');
  const [type, setType] = useState<string>('LEAD_LABEL_UPDATED');
  const [labels, setLabels] = useState<string[]>([]);
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [created, create] = useMutation(CreateSubsequence);
  const [removing, setRemoving] = useState<SubsequenceRow | null>(null);
  const [archived, archive] = useMutation(ArchiveSubsequence);
  const [deleted, remove] = useMutation(DeleteSubsequence);

  if (result.fetching && !result.data) return <Loading label="Loading the subsequences…" />;
  const campaign = result.data?.campaign;
  if (!campaign) return <ProblemAlert problem={problemOf(result.error) ?? { message: 'The subsequences could not be read.', fields: [] }} title="The subsequences could not be read" />;
  if (campaign.type === 'subseq') {
    return <Text>A subsequence has no subsequences of its own: its triggers are those above, set when it was created.</Text>;
  }
  const labelNames = new Map((result.data?.workspace?.leadLabels ?? []).map((l) => [l.key, l.name]));
  const connection = result.data?.workspace?.campaigns;
  const rows = connection?.edges.map((e) => e.node) ?? [];
  const problem = problemOf(created.error);
  const removeProblem = problemOf(archived.error ?? deleted.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const events = [
      type === 'LEAD_LABEL_UPDATED'
        ? { name: type, val: labels.map((key) => `${LABEL_PREFIX}${key}`) }
        : type === 'LEAD_REPLY_CONTENT'
          ? { name: type, includeText: include, ...(exclude.trim() ? { excludeText: exclude } : {}) }
          : { name: type },
    ];
    const answer = await create({ workspaceId, parentCampaignId: campaignId, name, events });
    const id = answer.data?.createSubsequence?.id;
    if (answer.error || !id) return;
    notifications.show({ color: 'green', message: 'The subsequence is created: write its sequence, then launch it.' });
    close();
    navigate(`/campaigns/${id}`);
  };
  const confirmRemove = async (how: 'archive' | 'delete') => {
    if (!removing) return;
    const answer = how === 'archive' ? await archive({ workspaceId, id: removing.id }) : await remove({ workspaceId, id: removing.id });
    if (answer.error) return;
    notifications.show({ color: 'green', message: how === 'archive' ? 'The subsequence is archived.' : 'The subsequence is deleted.' });
    setRemoving(null);
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Subsequences
        </Title>
        {!readOnly && <Button onClick={open}>New subsequence</Button>}
      </Group>
      <Text size="sm" c="dimmed">
        A subsequence sends its own sequence to the leads of this campaign that meet its trigger; their sequence here stops.
      </Text>
      {result.error && <ProblemAlert problem={problemOf(result.error)} title="The subsequences could not be read" />}
      <ProblemAlert problem={removeProblem} title="Could not remove the subsequence" />
      {!result.error && rows.length === 0 && <Text>No subsequences yet.</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Subsequences" verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Trigger</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Leads</Table.Th>
                <Table.Th ta="right">Sent</Table.Th>
                {!readOnly && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/campaigns/${row.id}`}>
                      {row.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.events.map((e) => triggerInWords(e, labelNames)).join('; or ')}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={row.status} />
                  </Table.Td>
                  <Table.Td ta="right" aria-label={`${row.leadCount} leads`}>
                    {number.format(row.leadCount)}
                  </Table.Td>
                  <Table.Td ta="right">{number.format(row.sentCount)}</Table.Td>
                  {!readOnly && (
                    <Table.Td>
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${row.name}`}>
                            ⋯
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setRemoving(row)}>Archive or delete…</Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {connection && (connection.totalCount ?? 0) > rows.length && (
        <Text size="sm" c="dimmed">
          Showing the first {rows.length} of {connection.totalCount} subsequences.
        </Text>
      )}

      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={creating} onClose={close} title="New subsequence">
        <form onSubmit={submit} aria-label="New subsequence">
          <Stack gap="sm">
            <ProblemAlert problem={problem} fields={['name', 'events']} prefixes={['events.']} title="The subsequence could not be created" />
            <TextInput label="Name" withAsterisk value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldProblem(problem, 'name', 'camp_name')} />
            <Select
              label="Trigger"
              data={TRIGGER_TYPES.map((t) => ({ value: t.value, label: t.label }))}
              value={type}
              onChange={(value) => value && setType(value)}
              allowDeselect={false}
              error={eventProblem(problem, 'events.0.name') ?? fieldProblem(problem, 'events')}
            />
            {type === 'LEAD_LABEL_UPDATED' && (
              <MultiSelect
                label="Lead labels"
                description="A lead of this campaign marked with any of these labels is enrolled."
                placeholder={labels.length ? undefined : 'Choose labels'}
                data={(result.data?.workspace?.leadLabels ?? []).map((l) => ({ value: l.key, label: l.name }))}
                value={labels}
                onChange={setLabels}
                error={eventProblem(problem, 'events.0.val')}
              />
            )}
            {type === 'LEAD_REPLY_CONTENT' && (
              <>
                <TextInput
                  label="Reply contains"
                  description="Comma-separated phrases; any one triggers (case-insensitive)."
                  value={include}
                  onChange={(e) => setInclude(e.currentTarget.value)}
                  error={eventProblem(problem, 'events.0.include_text')}
                />
                <TextInput
                  label="Unless it contains"
                  description="Optional comma-separated phrases."
                  value={exclude}
                  onChange={(e) => setExclude(e.currentTarget.value)}
                  error={eventProblem(problem, 'events.0.exclude_text')}
                />
              </>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={created.fetching}>
                Create the subsequence
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={removing !== null} onClose={() => setRemoving(null)} title={`Remove ${removing?.name ?? ''}`}>
        <Stack gap="sm">
          <Text>Archiving stops it and keeps its leads and statistics. Deleting removes it with its steps, leads and sends.</Text>
          <ProblemAlert problem={removeProblem} title="Could not remove the subsequence" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)}>
              Cancel
            </Button>
            <Button variant="default" onClick={() => confirmRemove('archive')} loading={archived.fetching}>
              Archive
            </Button>
            <Button color="red" onClick={() => confirmRemove('delete')} loading={deleted.fetching}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** On a subsequence's page: the parent it belongs to (with a link back) and its triggers. */
export function SubsequenceOf(props: { workspaceId: string; campaignId: string }) {
  const [result] = useQuery({ query: SubsequencesQuery, variables: { workspaceId: props.workspaceId, parentId: props.campaignId } });
  const campaign = result.data?.campaign;
  if (!campaign || campaign.type !== 'subseq') return null;
  const labelNames = new Map((result.data?.workspace?.leadLabels ?? []).map((l) => [l.key, l.name]));
  return (
    <Alert color="blue" title="Subsequence">
      <Text size="sm">
        Part of{' '}
        {campaign.parent ? (
          <Anchor component={Link} to={`/campaigns/${campaign.parent.id}`}>
            {campaign.parent.name}
          </Anchor>
        ) : (
          'a campaign that no longer exists'
        )}
        . Leads of that campaign enter it {campaign.events.map((e) => triggerInWords(e, labelNames)).join('; or ')}.
      </Text>
    </Alert>
  );
}
