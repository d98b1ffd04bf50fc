// The blocklist: addresses and domains never sent to. Search it, add entries typed, pasted or
// loaded from a file (one per line, or a CSV's values), remove them.
import { useState, type FormEvent } from 'react';
import { Badge, Button, FileButton, Group, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf, type Problem } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';
import { AddBlocklistEntries, BlocklistQuery, DeleteBlocklistEntries } from './settings.graphql';
import { chunksOf, entriesOf } from './blocklist.rules';
import { ConfirmButton, ReadFailed, told, useRights } from './shared';

export function BlocklistTab(props: { workspaceId: string }) {
  const { workspaceId } = props;
  const { canWrite } = useRights();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 250);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const [list, refetch] = useQuery({ query: BlocklistQuery, variables: { workspaceId, search: term || null, after } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, remove] = useMutation(DeleteBlocklistEntries);
  const page = list.data?.workspace?.blocklist;

  return (
    <Stack gap="md">
      {canWrite && <AddEntries workspaceId={workspaceId} onAdded={() => { setCursors([null]); reload(); }} />}
      <TextInput
        type="search"
        label="Search the blocklist"
        placeholder="Address or domain"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setCursors([null]);
        }}
        w={{ base: '100%', xs: 320 }}
      />
      {list.error && !page ? (
        <ReadFailed what="The blocklist" error={list.error} retry={reload} />
      ) : !page ? (
        <Loading label="Loading the blocklist…" />
      ) : !page.edges.length ? (
        <Text fw={600} py="md">
          {term ? 'No entry matches this search.' : 'The blocklist is empty.'}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {page.totalCount ?? page.edges.length} {term ? 'matching ' : ''}entries
          </Text>
          <TableScroll minWidth={520} label="Blocklist">
            <Table striped aria-label="Blocklist">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Entry</Table.Th>
                  <Table.Th>Blocks</Table.Th>
                  <Table.Th>Added</Table.Th>
                  {canWrite && <Table.Th>Actions</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {page.edges.map(({ node: e }) => (
                  <Table.Tr key={e.id}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{e.value}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="gray">
                        {e.value.includes('@') ? 'Address' : 'Domain'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{new Date(e.createdAt).toLocaleDateString()}</Table.Td>
                    {canWrite && (
                      <Table.Td>
                        <ConfirmButton
                          label={`Remove ${e.value} from the blocklist`}
                          title="Remove from the blocklist?"
                          confirm="Remove"
                          onConfirm={async () => {
                            const ok = told(`remove ${e.value}`, await remove({ workspaceId, entries: [e.value] }));
                            reload();
                            return ok;
                          }}
                        >
                          Campaigns may send to {e.value} again.
                        </ConfirmButton>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
          {(cursors.length > 1 || page.pageInfo.hasNextPage) && (
            <Group gap="sm">
              <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Previous entries
              </Button>
              <Button variant="default" disabled={!page.pageInfo.hasNextPage} onClick={() => setCursors([...cursors, page.pageInfo.endCursor ?? null])}>
                Next entries
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

/** Entries typed or pasted, or loaded from a file into the box first, then added 1,000 at a time. */
function AddEntries(props: { workspaceId: string; onAdded: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [, add] = useMutation(AddBlocklistEntries);

  const load = async (file: File | null) => {
    if (!file) return;
    const entries = entriesOf(await file.text());
    setText((current) => [current.trim(), ...entries].filter(Boolean).join('\n'));
    notifications.show({ message: `${entries.length} entries loaded from ${file.name}: check them, then add them.` });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const entries = entriesOf(text);
    if (!entries.length) {
      setProblem({ message: 'Type at least one address or domain', fields: [{ field: 'entries', message: 'Type at least one address or domain' }] });
      return;
    }
    setBusy(true);
    let added = 0;
    let already = 0;
    let failed: Problem | undefined;
    for (const chunk of chunksOf(entries)) {
      const answer = await add({ workspaceId: props.workspaceId, entries: chunk });
      failed = problemOf(answer.error);
      if (failed) {
        failed = entryProblem(failed, chunk);
        break;
      }
      added += answer.data?.addBlocklistEntries.entriesAdded ?? 0;
      already += answer.data?.addBlocklistEntries.alreadyInBlocklist ?? 0;
    }
    setBusy(false);
    setProblem(failed);
    if (added || already) {
      notifications.show({ color: 'green', message: `${added} added to the blocklist${already ? `, ${already} already in it` : ''}.` });
      props.onAdded();
    }
    if (!failed) setText('');
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <ProblemAlert problem={problem} fields={['entries']} prefixes={['entries']} title="Could not add to the blocklist" />
        <Textarea
          label="Add addresses or domains"
          description="One per line, or separated by commas. A domain (example.com) blocks every address at it."
          autosize
          minRows={2}
          maxRows={8}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={fieldProblem(problem, 'entries')}
        />
        <Group gap="sm">
          <Button type="submit" loading={busy}>
            Add to the blocklist
          </Button>
          <FileButton onChange={load} accept=".txt,.csv,text/plain,text/csv">
            {(p) => (
              <Button variant="default" {...p}>
                Load from a file…
              </Button>
            )}
          </FileButton>
        </Group>
      </Stack>
    </form>
  );
}

/** A refused entry named by its value: `entries.3` becomes "entries: not-an-address is not …". */
function entryProblem(problem: Problem, entries: string[]): Problem {
  const fields = problem.fields.map((f) => {
    const index = /^entries\.(\d+)$/.exec(f.field)?.[1];
    return index === undefined ? f : { field: 'entries', message: `${entries[Number(index)] ?? ''}: ${f.message}` };
  });
  return { ...problem, fields, message: fields.length ? fields.map((f) => f.message).join('; ') : problem.message };
}
