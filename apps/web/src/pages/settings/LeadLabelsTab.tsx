// Lead labels: the eight system labels and the workspace's own, each with a sentiment (positive
// labels count as positive replies; marking a lead fires LEAD_MARKED_AS_<key> webhooks).
import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { AddLeadLabel, DeleteLeadLabels, LeadLabelsQuery } from './settings.graphql';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

const SENTIMENTS = { POSITIVE: 'Positive', NEUTRAL: 'Neutral', NEGATIVE: 'Negative' } as const;
type Sentiment = keyof typeof SENTIMENTS;
const COLOURS: Record<Sentiment, string> = { POSITIVE: 'green', NEUTRAL: 'gray', NEGATIVE: 'red' };

export function LeadLabelsTab(props: { workspaceId: string }) {
  const { workspaceId } = props;
  const { canWrite } = useRights();
  const [list, refetch] = useQuery({ query: LeadLabelsQuery, variables: { workspaceId } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, remove] = useMutation(DeleteLeadLabels);
  const [name, setName] = useState('');
  const [sentiment, setSentiment] = useState<Sentiment>('NEUTRAL');
  const [added, add] = useMutation(AddLeadLabel);
  const problem = problemOf(added.error);
  const labels = list.data?.workspace?.leadLabels;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await add({ workspaceId, name, sentiment });
    if (answer.data?.addLeadLabel) {
      setName('');
      reload();
    }
  };

  return (
    <Stack gap="md">
      {canWrite && (
        <form onSubmit={submit} noValidate aria-label="New lead label">
          <ProblemAlert problem={problem} fields={['name', 'sentiment']} title="Could not add the label" />
          <Group align="flex-start" gap="sm">
            <TextInput label="Label name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldProblem(problem, 'name')} w={{ base: '100%', xs: 240 }} />
            <Select
              label="Sentiment"
              data={Object.entries(SENTIMENTS).map(([value, label]) => ({ value, label }))}
              value={sentiment}
              onChange={(v) => v && setSentiment(v as Sentiment)}
              allowDeselect={false}
              error={fieldProblem(problem, 'sentiment')}
              w={{ base: '100%', xs: 160 }}
            />
            <Button type="submit" mt={{ base: 0, xs: 25 }} loading={added.fetching}>
              Add the label
            </Button>
          </Group>
        </form>
      )}
      {list.error && !labels ? (
        <ReadFailed what="The lead labels" error={list.error} retry={reload} />
      ) : !labels ? (
        <Loading label="Loading lead labels…" />
      ) : (
        <TableScroll minWidth={480} label="Lead labels">
          <Table striped aria-label="Lead labels">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Label</Table.Th>
                <Table.Th>Sentiment</Table.Th>
                <Table.Th>Webhook event</Table.Th>
                {canWrite && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {labels.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>
                    <Text fw={600}>{l.name}</Text>
                    {l.isSystem && (
                      <Text size="xs" c="dimmed">
                        System label
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={COLOURS[l.sentiment]}>
                      {SENTIMENTS[l.sentiment]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      LEAD_MARKED_AS_{l.key}
                    </Text>
                  </Table.Td>
                  {canWrite && (
                    <Table.Td>
                      {!l.isSystem && (
                        <ConfirmButton
                          label={`Delete the label ${l.name}`}
                          title="Delete the label?"
                          confirm="Delete"
                          onConfirm={async () => {
                            const ok = told(`delete the label ${l.name}`, await remove({ workspaceId, ids: [l.id] }));
                            reload();
                            return ok;
                          }}
                        >
                          Leads marked “{l.name}” lose the label.
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
