// Additional fields: the workspace's own lead fields (merge fields {{name}} in sequences), each
// with the value used for leads that have none.
import { useState, type FormEvent } from 'react';
import { Button, Code, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { AdditionalFieldsQuery, CreateAdditionalField, DeleteAdditionalFields } from './settings.graphql';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

export function FieldsTab(props: { workspaceId: string }) {
  const { workspaceId } = props;
  const { canWrite } = useRights();
  const [list, refetch] = useQuery({ query: AdditionalFieldsQuery, variables: { workspaceId } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, remove] = useMutation(DeleteAdditionalFields);
  const [name, setName] = useState('');
  const [defaultValue, setDefaultValue] = useState('');
  const [created, create] = useMutation(CreateAdditionalField);
  const problem = problemOf(created.error);
  const fields = list.data?.workspace?.additionalFields;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ workspaceId, name, defaultValue: defaultValue || null });
    if (answer.data?.createAdditionalField) {
      setName('');
      setDefaultValue('');
      reload();
    }
  };

  return (
    <Stack gap="md">
      {canWrite && (
        <form onSubmit={submit} noValidate aria-label="New field">
          <ProblemAlert problem={problem} fields={['name', 'default_value', 'defaultValue']} title="Could not add the field" />
          <Group align="flex-start" gap="sm">
            <TextInput label="Field name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldProblem(problem, 'name')} w={{ base: '100%', xs: 240 }} />
            <TextInput label="Default value" value={defaultValue} onChange={(e) => setDefaultValue(e.currentTarget.value)} error={fieldProblem(problem, 'default_value')} w={{ base: '100%', xs: 240 }} />
            <Button type="submit" mt={{ base: 0, xs: 25 }} loading={created.fetching}>
              Add the field
            </Button>
          </Group>
        </form>
      )}
      {list.error && !fields ? (
        <ReadFailed what="The additional fields" error={list.error} retry={reload} />
      ) : !fields ? (
        <Loading label="Loading fields…" />
      ) : !fields.length ? (
        <Text fw={600} py="md">
          No additional fields yet.
        </Text>
      ) : (
        <TableScroll minWidth={480} label="Additional fields">
          <Table striped aria-label="Additional fields">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Merge field</Table.Th>
                <Table.Th>Default value</Table.Th>
                {canWrite && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.map((f) => (
                <Table.Tr key={f.name}>
                  <Table.Td fw={600}>{f.name}</Table.Td>
                  <Table.Td>
                    <Code>{`{{${f.name}}}`}</Code>
                  </Table.Td>
                  <Table.Td>{f.defaultValue}</Table.Td>
                  {canWrite && (
                    <Table.Td>
                      <ConfirmButton
                        label={`Delete the field ${f.name}`}
                        title="Delete the field?"
                        confirm="Delete"
                        onConfirm={async () => {
                          const ok = told(`delete the field ${f.name}`, await remove({ workspaceId, names: [f.name] }));
                          reload();
                          return ok;
                        }}
                      >
                        Sequences using {`{{${f.name}}}`} no longer get a default for it.
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
