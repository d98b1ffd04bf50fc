// API keys: the organization's keys for programs that call the API. Owners and admins list,
// create (the key is shown once) and revoke them; others are told who can.
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, CopyButton, Group, Modal, Radio, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { useSession } from '../../session';
import { ApiKeysQuery, CreateApiKey, RevokeApiKey } from './api-keys.graphql';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

type Role = 'OWNER' | 'ADMIN' | 'MEMBER' | 'READ_ONLY';
const ROLE_WORDS: Record<Role, string> = { OWNER: 'Owner', ADMIN: 'Admin', MEMBER: 'Member', READ_ONLY: 'Read-only' };
const FULL = 'FULL';
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function ApiKeysTab(props: { workspaceId: string; workspaceName: string }) {
  const { isAdmin } = useRights();
  if (!isAdmin) return <Text>Only owners and admins of the organization see and manage API keys.</Text>;
  return <ApiKeys {...props} />;
}

function ApiKeys(props: { workspaceId: string; workspaceName: string }) {
  const [list, refetch] = useQuery({ query: ApiKeysQuery, requestPolicy: 'cache-and-network' });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, revoke] = useMutation(RevokeApiKey);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const keys = list.data?.apiKeys;
  const workspaceName = new Map((list.data?.workspaces ?? []).map((w) => [w.id, w.name]));

  if (list.error && !keys) return <ReadFailed what="The API keys" error={list.error} retry={reload} />;
  if (!keys) return <Loading label="Loading API keys…" />;
  const scopeOf = (k: (typeof keys)[number]) =>
    k.partnerName ? `Partner: ${k.partnerName}` : k.clientId ? 'A client’s workspaces' : k.workspaceId ? (workspaceName.get(k.workspaceId) ?? 'One workspace') : 'All workspaces';
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" maw={640}>
          API keys let programs call the Outreach API (REST, GraphQL, tRPC) in the organization’s name. Send the key in the <code>x-api-key</code> header.
        </Text>
        <Button onClick={() => setCreating(true)}>Create a key</Button>
      </Group>
      {shown && (
        <Alert color="yellow" title={`The key “${shown.name}”`} withCloseButton onClose={() => setShown(null)} closeButtonLabel="Dismiss the key">
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              Copy it now: it will not be shown again. Only its first group is kept to recognise it.
            </Text>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput label="New API key" readOnly value={shown.key} onFocus={(e) => e.currentTarget.select()} style={{ flex: 1, minWidth: 0 }} styles={{ input: { fontFamily: 'monospace' } }} />
              <CopyButton value={shown.key}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy the key'}</Button>}</CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      {!keys.length ? (
        <Text fw={600} py="md">
          No API keys yet.
        </Text>
      ) : (
        <TableScroll minWidth={860} label="API keys">
          <Table striped aria-label="API keys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Scope</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>
                    <Text fw={600}>{k.name}</Text>
                    <Text size="sm" c="dimmed" ff="monospace">
                      {k.keyPrefix}-…
                    </Text>
                  </Table.Td>
                  <Table.Td>{scopeOf(k)}</Table.Td>
                  <Table.Td>{k.role ? ROLE_WORDS[k.role] : 'Full access'}</Table.Td>
                  <Table.Td>{day(k.createdAt)}</Table.Td>
                  <Table.Td>{k.lastUsedAt ? day(k.lastUsedAt) : 'Never'}</Table.Td>
                  <Table.Td>
                    {k.revokedAt ? (
                      <Badge variant="light" color="gray">
                        Revoked {day(k.revokedAt)}
                      </Badge>
                    ) : (
                      <Badge variant="light" color="green">
                        Active
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {!k.revokedAt && (
                      <ConfirmButton
                        label={`Revoke the key ${k.name}`}
                        title="Revoke the key?"
                        confirm="Revoke"
                        onConfirm={async () => {
                          const ok = told(`revoke ${k.name}`, await revoke({ id: k.id }), `Revoked ${k.name}`);
                          reload();
                          return ok;
                        }}
                      >
                        Programs using “{k.name}” ({k.keyPrefix}-…) get 401 from now on. This cannot be undone.
                      </ConfirmButton>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create an API key" closeButtonProps={{ 'aria-label': 'Close' }}>
        <CreateKeyForm
          workspaceId={props.workspaceId}
          workspaceName={props.workspaceName}
          onDone={(created) => {
            setCreating(false);
            setShown(created);
            reload();
          }}
          onCancel={() => setCreating(false)}
        />
      </Modal>
    </Stack>
  );
}

function CreateKeyForm(props: { workspaceId: string; workspaceName: string; onDone: (created: { name: string; key: string }) => void; onCancel: () => void }) {
  const myRole = useSession().viewer?.person.role;
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'all' | 'workspace'>('all');
  // A key cannot outrank its maker: full access (as an owner) is for owners.
  const roles = [...(myRole === 'OWNER' ? [{ value: FULL, label: 'Full access' }] : []), ...(['ADMIN', 'MEMBER', 'READ_ONLY'] as const).map((r) => ({ value: r, label: ROLE_WORDS[r] }))];
  const [role, setRole] = useState<string>(roles[0]!.value);
  const [created, create] = useMutation(CreateApiKey);
  const problem = problemOf(created.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ name, workspaceId: scope === 'workspace' ? props.workspaceId : null, role: role === FULL ? null : (role as 'ADMIN' | 'MEMBER' | 'READ_ONLY') });
    if (answer.data?.createApiKey) props.onDone({ name: answer.data.createApiKey.key.name, key: answer.data.createApiKey.apiKey });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <ProblemAlert problem={problem} fields={['name', 'workspace_id', 'role']} title="Could not create the key" />
        <TextInput label="Name" description="Where the key is used, to recognise it later" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldProblem(problem, 'name')} data-autofocus />
        <Radio.Group label="Workspaces the key reaches" value={scope} onChange={(v) => setScope(v as 'all' | 'workspace')} error={fieldProblem(problem, 'workspace_id')}>
          <Stack gap={6} mt="xs">
            <Radio value="all" label="All workspaces" />
            <Radio value="workspace" label={`Only ${props.workspaceName}`} />
          </Stack>
        </Radio.Group>
        <Select label="Role" description="Read-only keys run queries only" data={roles} value={role} onChange={(v) => v && setRole(v)} allowDeselect={false} error={fieldProblem(problem, 'role')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={created.fetching}>
            Create the key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
