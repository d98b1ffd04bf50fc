// Tags: names with a colour that campaigns and mailboxes carry, to filter them.
import { useState, type FormEvent } from 'react';
import { Button, ColorSwatch, ColorInput, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { CreateTag, DeleteTags, TagsQuery } from './settings.graphql';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

export function TagsTab(props: { workspaceId: string }) {
  const { workspaceId } = props;
  const { canWrite } = useRights();
  const [list, refetch] = useQuery({ query: TagsQuery, variables: { workspaceId } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, remove] = useMutation(DeleteTags);
  const [name, setName] = useState('');
  const [color, setColor] = useState('#3b5bdb');
  const [description, setDescription] = useState('');
  const [created, create] = useMutation(CreateTag);
  const problem = problemOf(created.error);
  const tags = list.data?.workspace?.tags;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ workspaceId, name, color, description: description || null });
    if (answer.data?.createTag) {
      setName('');
      setDescription('');
      reload();
    }
  };

  return (
    <Stack gap="md">
      {canWrite && (
        <form onSubmit={submit} noValidate aria-label="New tag">
          <ProblemAlert problem={problem} fields={['name', 'color', 'description']} title="Could not create the tag" />
          <Group align="flex-start" gap="sm">
            <TextInput label="Tag name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldProblem(problem, 'name')} w={{ base: '100%', xs: 220 }} />
            <ColorInput label="Colour" withEyeDropper={false} value={color} onChange={setColor} format="hex" error={fieldProblem(problem, 'color')} w={{ base: '100%', xs: 160 }} />
            <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={fieldProblem(problem, 'description')} w={{ base: '100%', xs: 260 }} />
            <Button type="submit" mt={{ base: 0, xs: 25 }} loading={created.fetching}>
              Create the tag
            </Button>
          </Group>
        </form>
      )}
      {list.error && !tags ? (
        <ReadFailed what="The tags" error={list.error} retry={reload} />
      ) : !tags ? (
        <Loading label="Loading tags…" />
      ) : !tags.length ? (
        <Text fw={600} py="md">
          No tags yet.
        </Text>
      ) : (
        <TableScroll minWidth={520} label="Tags">
          <Table striped aria-label="Tags">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tag</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th ta="right">Campaigns</Table.Th>
                <Table.Th ta="right">Mailboxes</Table.Th>
                {canWrite && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tags.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <ColorSwatch color={t.color} size={14} aria-hidden />
                      <Text fw={600}>{t.name}</Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>{t.description}</Table.Td>
                  <Table.Td ta="right">{t.campaignCount}</Table.Td>
                  <Table.Td ta="right">{t.accountCount}</Table.Td>
                  {canWrite && (
                    <Table.Td>
                      <ConfirmButton
                        label={`Delete the tag ${t.name}`}
                        title="Delete the tag?"
                        confirm="Delete"
                        onConfirm={async () => {
                          const ok = told(`delete the tag ${t.name}`, await remove({ workspaceId, ids: [t.id] }));
                          reload();
                          return ok;
                        }}
                      >
                        “{t.name}” is removed from its {t.campaignCount} campaigns and {t.accountCount} mailboxes.
                      </ConfirmButton>
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
