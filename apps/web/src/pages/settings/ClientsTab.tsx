// Clients: outside accounts (an agency's customers) with an API key limited to the workspaces
// and permissions granted to them. Owners and admins manage them.
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Modal, MultiSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { ClientsQuery, CreateClient, DeleteClient, SetClientStatus, UpdateClientGrants } from './settings.graphql';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

const RESOURCES = { CAMPAIGN: 'Campaigns', EMAILACCOUNT: 'Mailboxes', TAG: 'Tags', BLOCKLIST: 'Blocklist', TEMPLATE: 'Templates' } as const;
const ACTIONS = ['LIST', 'CREATE', 'EDIT', 'DELETE'] as const;
type Permission = `${keyof typeof RESOURCES}_${(typeof ACTIONS)[number]}` | 'HOOK_CREATE';
const ALL_PERMISSIONS: Permission[] = [...(Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]).flatMap((r) => ACTIONS.map((a) => `${r}_${a}` as Permission)), 'HOOK_CREATE'];
const READ_PERMISSIONS = ALL_PERMISSIONS.filter((p) => p.endsWith('_LIST'));
const words = (p: string) => (p === 'HOOK_CREATE' ? 'Webhooks' : `${RESOURCES[p.split('_')[0] as keyof typeof RESOURCES]}: ${p.split('_')[1]!.toLowerCase()}`);

type Grants = { workspaces: string[]; permissions: Permission[] };

export function ClientsTab() {
  const { isAdmin } = useRights();
  if (!isAdmin) return <Text>Only owners and admins of the organization manage client access.</Text>;
  return <Clients />;
}

function Clients() {
  const [list, refetch] = useQuery({ query: ClientsQuery });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, setStatus] = useMutation(SetClientStatus);
  const [, remove] = useMutation(DeleteClient);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [key, setKey] = useState<string | null>(null);
  const workspaces = list.data?.workspaces ?? [];
  const workspaceName = new Map(workspaces.map((w) => [w.id, w.name]));
  const clients = list.data?.clients;
  const editingClient = clients?.find((c) => c.id === editing);

  if (list.error && !clients) return <ReadFailed what="The clients" error={list.error} retry={reload} />;
  if (!clients) return <Loading label="Loading clients…" />;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" maw={640}>
          A client gets an API key that reaches only the workspaces granted here, with the permissions chosen for them.
        </Text>
        <Button onClick={() => setCreating(true)}>Add a client</Button>
      </Group>
      {key && (
        <Alert color="green" title="The client’s API key" withCloseButton onClose={() => setKey(null)} closeButtonLabel="Dismiss the key">
          <Stack gap="xs">
            <Text size="sm">It is shown only now: hand it to the client.</Text>
            <Group gap="xs">
              <Code>{key}</Code>
              <CopyButton value={key}>{({ copied, copy }) => <Button size="xs" variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy the key'}</Button>}</CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      {!clients.length ? (
        <Text fw={600} py="md">
          No clients yet.
        </Text>
      ) : (
        <TableScroll minWidth={720} label="Clients">
          <Table striped aria-label="Clients">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Client</Table.Th>
                <Table.Th>Workspaces granted</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clients.map((c) => {
                const who = [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email;
                return (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Text fw={600}>{who}</Text>
                      <Text size="sm">{c.email}</Text>
                      {c.businessName && <Text size="sm" c="dimmed">{c.businessName}</Text>}
                    </Table.Td>
                    <Table.Td>
                      {c.grants.length ? (
                        c.grants.map((g) => (
                          <Text size="sm" key={g.workspaceId}>
                            {workspaceName.get(g.workspaceId) ?? g.workspaceId}: {g.permissions.length} permissions
                          </Text>
                        ))
                      ) : (
                        <Text size="sm" c="dimmed">None</Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={c.status === 'ACTIVE' ? 'green' : 'gray'}>
                        {c.status === 'ACTIVE' ? 'Active' : 'Inactive'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button size="xs" variant="light" aria-label={`Edit the grants of ${who}`} onClick={() => setEditing(c.id)}>
                          Grants
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`${c.status === 'ACTIVE' ? 'Deactivate' : 'Activate'} ${who}`}
                          onClick={async () => {
                            told('change the client’s status', await setStatus({ clientId: c.id, status: c.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE' }));
                            reload();
                          }}
                        >
                          {c.status === 'ACTIVE' ? 'Deactivate' : 'Activate'}
                        </Button>
                        <ConfirmButton
                          label={`Delete the client ${who}`}
                          title="Delete the client?"
                          confirm="Delete"
                          onConfirm={async () => {
                            const ok = told(`delete ${who}`, await remove({ clientId: c.id }));
                            reload();
                            return ok;
                          }}
                        >
                          {who} loses every grant, and their API key stops working within a few seconds.
                        </ConfirmButton>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="Add a client" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <ClientForm
          workspaces={workspaces}
          onDone={(apiKey) => {
            setCreating(false);
            setKey(apiKey ?? null);
            reload();
          }}
          onCancel={() => setCreating(false)}
        />
      </Modal>
      <Modal opened={!!editingClient} onClose={() => setEditing(null)} title="The client’s grants" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {editingClient && (
          <ClientForm
            workspaces={workspaces}
            clientId={editingClient.id}
            initial={{ workspaces: editingClient.grants.map((g) => g.workspaceId), permissions: (editingClient.grants[0]?.permissions ?? READ_PERMISSIONS) as Permission[] }}
            onDone={() => {
              setEditing(null);
              reload();
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

/** A new client (with its details), or an existing client's grants: the same permissions in each chosen workspace. */
function ClientForm(props: { workspaces: { id: string; name: string }[]; clientId?: string; initial?: Grants; onDone: (apiKey?: string) => void; onCancel: () => void }) {
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [businessName, setBusinessName] = useState('');
  const [grants, setGrants] = useState<Grants>(props.initial ?? { workspaces: [], permissions: READ_PERMISSIONS });
  const [created, create] = useMutation(CreateClient);
  const [updated, update] = useMutation(UpdateClientGrants);
  const problem = problemOf(created.error ?? updated.error);
  const permissions = grants.workspaces.map((workspaceId) => ({ workspaceId, permissions: grants.permissions }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (props.clientId) {
      const answer = await update({ clientId: props.clientId, permissions });
      if (answer.data?.updateClientPermissions) props.onDone();
    } else {
      const answer = await create({ email, firstName: firstName || null, lastName: lastName || null, businessName: businessName || null, permissions });
      if (answer.data?.createClient) props.onDone(answer.data.createClient.apiKey);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <ProblemAlert problem={problem} fields={['client_email', 'email', 'client_first_name', 'client_last_name', 'client_business_name']} title="Could not save the client" />
        {!props.clientId && (
          <>
            <TextInput label="E-mail" required type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fieldProblem(problem, 'client_email', 'email')} data-autofocus />
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <TextInput label="First name" value={firstName} onChange={(e) => setFirstName(e.currentTarget.value)} error={fieldProblem(problem, 'client_first_name')} />
              <TextInput label="Last name" value={lastName} onChange={(e) => setLastName(e.currentTarget.value)} error={fieldProblem(problem, 'client_last_name')} />
            </SimpleGrid>
            <TextInput label="Business name" value={businessName} onChange={(e) => setBusinessName(e.currentTarget.value)} error={fieldProblem(problem, 'client_business_name')} />
          </>
        )}
        <MultiSelect label="Workspaces" description="The workspaces the client’s key reaches" data={props.workspaces.map((w) => ({ value: w.id, label: w.name }))} value={grants.workspaces} onChange={(workspaces) => setGrants({ ...grants, workspaces })} />
        <Checkbox.Group label="Permissions in those workspaces" value={grants.permissions} onChange={(p) => setGrants({ ...grants, permissions: p as Permission[] })}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} mt="xs">
            {ALL_PERMISSIONS.map((p) => (
              <Checkbox key={p} value={p} label={words(p)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={created.fetching || updated.fetching}>
            {props.clientId ? 'Save the grants' : 'Add the client'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
