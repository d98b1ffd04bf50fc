// People: who signs in to this organization, with their role. Owners and admins invite people
// to the current workspace (the link is shown to copy: no e-mail is sent), change roles, remove people.
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, CopyButton, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { useSession } from '../../session';
import { ChangePersonRole, InviteUser, PeopleQuery, RemovePerson } from './settings.graphql';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

const ROLES = { OWNER: 'Owner', ADMIN: 'Admin', MEMBER: 'Member', READ_ONLY: 'Read-only' } as const;
type Role = keyof typeof ROLES;
const INVITE_ROLES = (['ADMIN', 'MEMBER', 'READ_ONLY'] as const).map((value) => ({ value, label: ROLES[value] }));

export function PeopleTab(props: { workspaceId: string; workspaceName: string }) {
  const { isAdmin } = useRights();
  const me = useSession().viewer?.person.id;
  const [list, refetch] = useQuery({ query: PeopleQuery });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, changeRole] = useMutation(ChangePersonRole);
  const [, remove] = useMutation(RemovePerson);
  const people = list.data?.people;

  return (
    <Stack gap="md">
      {isAdmin && <Invite workspaceId={props.workspaceId} workspaceName={props.workspaceName} />}
      {list.error && !people ? (
        <ReadFailed what="The people" error={list.error} retry={reload} />
      ) : !people ? (
        <Loading label="Loading people…" />
      ) : (
        <TableScroll minWidth={560} label="People">
          <Table striped aria-label="People">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Person</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Since</Table.Th>
                {isAdmin && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Text fw={600}>
                      {p.name}
                      {p.id === me ? ' (you)' : ''}
                    </Text>
                    <Text size="sm">{p.email}</Text>
                  </Table.Td>
                  <Table.Td>
                    {isAdmin ? (
                      <Select
                        aria-label={`Role of ${p.name}`}
                        data={Object.entries(ROLES).map(([value, label]) => ({ value, label }))}
                        value={p.role}
                        allowDeselect={false}
                        w={150}
                        onChange={async (role) => {
                          if (!role || role === p.role) return;
                          told(`change the role of ${p.name}`, await changeRole({ id: p.id, role: role as Role }), `${p.name} is now ${ROLES[role as Role].toLowerCase()}.`);
                          reload();
                        }}
                      />
                    ) : (
                      <Badge variant="light" color="gray">
                        {ROLES[p.role]}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{new Date(p.createdAt).toLocaleDateString()}</Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      {p.id !== me && (
                        <ConfirmButton
                          label={`Remove ${p.name}`}
                          title="Remove this person?"
                          confirm="Remove"
                          onConfirm={async () => {
                            const ok = told(`remove ${p.name}`, await remove({ id: p.id }));
                            reload();
                            return ok;
                          }}
                        >
                          {p.name} is signed out everywhere and can no longer sign in.
                        </ConfirmButton>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
    </Stack>
  );
}

/** Invites an address to the current workspace and shows the link to hand over (valid 7 days). */
function Invite(props: { workspaceId: string; workspaceName: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<(typeof INVITE_ROLES)[number]['value']>('MEMBER');
  const [invited, invite] = useMutation(InviteUser);
  const [link, setLink] = useState<{ url: string; email: string; expiresAt: string } | null>(null);
  const problem = problemOf(invited.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await invite({ workspaceId: props.workspaceId, email, role });
    const token = answer.data?.inviteUser.token;
    if (token) {
      setLink({ url: `${window.location.origin}/invite#token=${encodeURIComponent(token)}`, email, expiresAt: answer.data!.inviteUser.expiresAt });
      setEmail('');
    }
  };

  return (
    <Stack gap="sm">
      <form onSubmit={submit} noValidate aria-label="Invite a person">
        <ProblemAlert problem={problem} fields={['email', 'role']} title="Could not invite" />
        <Group align="flex-start" gap="sm">
          <TextInput label={`Invite to ${props.workspaceName}`} placeholder="name@company.com" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fieldProblem(problem, 'email')} w={{ base: '100%', xs: 280 }} />
          <Select label="Their role" data={INVITE_ROLES} value={role} onChange={(v) => v && setRole(v as typeof role)} allowDeselect={false} error={fieldProblem(problem, 'role')} w={{ base: '100%', xs: 160 }} />
          <Button type="submit" mt={{ base: 0, xs: 25 }} loading={invited.fetching}>
            Create an invitation
          </Button>
        </Group>
      </form>
      {link && (
        <Alert color="green" title={`Invitation for ${link.email}`}>
          <Stack gap="xs">
            <Text size="sm">No e-mail is sent: copy this link and give it to them. It works once, until {new Date(link.expiresAt).toLocaleDateString()}.</Text>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput label="Invitation link" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} style={{ flex: 1 }} />
              <CopyButton value={link.url}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy the link'}</Button>}</CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
