// Webhooks: the workspace's subscriptions with their last delivery, add one for some events,
// send it a test event, delete it. Owners and admins write; everyone else reads.
import { useState, type FormEvent } from 'react';
import { Badge, Button, Checkbox, Group, Modal, MultiSelect, PasswordInput, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { AddWebhook, DeleteWebhooks, SendWebhookTestEvent, WebhooksQuery } from './settings.graphql';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

const EVENTS: Record<string, string> = {
  FIRST_EMAIL_REPLIES: 'First reply of a lead',
  ALL_EMAIL_REPLIES: 'Every reply',
  ALL_POSITIVE_REPLIES: 'Positive replies',
  EMAIL_SENT: 'E-mail sent',
  BOUNCED_EMAIL: 'Bounce',
  UNIBOX_EMAIL_SENT: 'Sent from the unibox',
  SYSTEM_ALERT: 'System alerts',
};
const LABEL_PREFIX = 'LEAD_MARKED_AS_';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

export function WebhooksTab(props: { workspaceId: string }) {
  const { workspaceId } = props;
  const { isAdmin } = useRights();
  const [list, refetch] = useQuery({ query: WebhooksQuery, variables: { workspaceId } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, remove] = useMutation(DeleteWebhooks);
  const [testing, test] = useMutation(SendWebhookTestEvent);
  const [adding, { open, close }] = useDisclosure(false);
  const workspace = list.data?.workspace;
  const labelEvents = workspace?.leadLabels.map((l) => ({ value: `${LABEL_PREFIX}${l.key}`, label: `Lead marked “${l.name}”` })) ?? [];
  const campaignName = new Map(workspace?.campaigns.edges.map((e) => [e.node.id, e.node.name]) ?? []);

  if (list.error && !workspace) return <ReadFailed what="The webhooks" error={list.error} retry={reload} />;
  if (!workspace) return <Loading label="Loading webhooks…" />;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" maw={640}>
          Outreach POSTs each event to the webhook’s address as JSON, signed with its secret when it has one.
        </Text>
        <Group gap="xs">
          <Button variant="default" onClick={reload} loading={list.fetching}>
            Refresh
          </Button>
          {isAdmin && <Button onClick={open}>Add a webhook</Button>}
        </Group>
      </Group>
      {!workspace.webhooks.length ? (
        <Text fw={600} py="md">
          No webhooks yet.
        </Text>
      ) : (
        <TableScroll minWidth={760} label="Webhooks">
          <Table striped verticalSpacing="sm" aria-label="Webhooks">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Webhook</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Campaigns</Table.Th>
                <Table.Th>Last delivery</Table.Th>
                {isAdmin && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {workspace.webhooks.map((h) => (
                <Table.Tr key={h.id}>
                  <Table.Td>
                    <Text fw={600}>{h.name || 'Unnamed webhook'}</Text>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {h.url}
                    </Text>
                    <Group gap={4} mt={4}>
                      <Badge variant="light" color={h.status === 'ACTIVE' ? 'green' : 'red'}>
                        {h.status === 'ACTIVE' ? 'Active' : 'Disabled'}
                      </Badge>
                      {h.hasSecret && (
                        <Badge variant="light" color="gray">
                          Signed
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{h.eventTypes.map((e) => EVENTS[e] ?? labelEvents.find((l) => l.value === e)?.label ?? e).join(', ')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{h.campaignIds.includes('ALL') ? 'All campaigns' : h.campaignIds.map((id) => campaignName.get(id) ?? id).join(', ')}</Text>
                  </Table.Td>
                  <Table.Td>
                    {h.lastRun ? (
                      <>
                        <Text size="sm">{h.lastResponse}</Text>
                        <Text size="xs" c="dimmed">
                          {when(h.lastRun)}
                        </Text>
                      </>
                    ) : (
                      <Text size="sm" c="dimmed">
                        Nothing delivered yet
                      </Text>
                    )}
                  </Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={`Send test event to ${h.name || h.url}`}
                          disabled={h.status !== 'ACTIVE'}
                          loading={testing.fetching && testing.operation?.variables.id === h.id}
                          onClick={async () => told('send the test event', await test({ workspaceId, id: h.id }), 'Test event queued: its answer shows under “Last delivery” once it is delivered.')}
                        >
                          Send test
                        </Button>
                        <ConfirmButton
                          label={`Delete the webhook ${h.name || h.url}`}
                          title="Delete the webhook?"
                          confirm="Delete"
                          onConfirm={async () => {
                            const ok = told('delete the webhook', await remove({ workspaceId, ids: [h.id] }));
                            reload();
                            return ok;
                          }}
                        >
                          {h.url} stops receiving events, and its pending deliveries are dropped.
                        </ConfirmButton>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <Modal opened={adding} onClose={close} title="Add a webhook" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddWebhookForm
          workspaceId={workspaceId}
          labelEvents={labelEvents}
          campaigns={workspace.campaigns.edges.map((e) => ({ value: e.node.id, label: e.node.name }))}
          onAdded={() => {
            close();
            reload();
          }}
          onCancel={close}
        />
      </Modal>
    </Stack>
  );
}

function AddWebhookForm(props: { workspaceId: string; labelEvents: { value: string; label: string }[]; campaigns: { value: string; label: string }[]; onAdded: () => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [campaigns, setCampaigns] = useState<string[]>([]);
  const [added, add] = useMutation(AddWebhook);
  const problem = problemOf(added.error);
  const about = (...prefixes: string[]) => problem?.fields.find((f) => prefixes.some((p) => f.field.replace(/_/g, '').toLowerCase().startsWith(p)));
  const eventsProblem = about('eventtypes');
  const campaignsProblem = about('campids', 'campaignids');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await add({ workspaceId: props.workspaceId, url, name: name || null, secret: secret || null, eventTypes: events, campaignIds: campaigns.length ? campaigns : ['ALL'] });
    if (answer.data?.addWebhook) props.onAdded();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <ProblemAlert problem={problem} fields={['url', 'name', 'secret']} prefixes={['event_types', 'eventTypes', 'camp_ids', 'campaignIds']} title="Could not add the webhook" />
        <TextInput label="Name" description="For you to recognise it" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldProblem(problem, 'name')} />
        <TextInput label="URL" required placeholder="https://example.com/outreach-events" value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={fieldProblem(problem, 'url')} data-autofocus />
        <PasswordInput label="Secret" description="Optional: signs each event so your receiver can check it came from Outreach" value={secret} onChange={(e) => setSecret(e.currentTarget.value)} error={fieldProblem(problem, 'secret')} />
        <Checkbox.Group label="Events" required value={events} onChange={setEvents} error={eventsProblem ? eventsProblem.message : undefined}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} mt="xs">
            {[...Object.entries(EVENTS).map(([value, label]) => ({ value, label })), ...props.labelEvents].map((e) => (
              <Checkbox key={e.value} value={e.value} label={e.label} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <MultiSelect
          label="Campaigns"
          description="Leave empty for every campaign, now and later"
          placeholder={campaigns.length ? undefined : 'All campaigns'}
          data={props.campaigns}
          value={campaigns}
          onChange={setCampaigns}
          searchable
          error={campaignsProblem?.message}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={added.fetching}>
            Add the webhook
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
