// Add many mailboxes from a CSV file: parsed in the browser (papaparse, loaded with this dialog),
// sent to the bulk add operation 100 at a time, each row's result shown (added, or why not).
import { useState } from 'react';
import { Alert, Button, Code, FileInput, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { useMutation } from 'urql';
import { problemOf } from '../../graphql/errors';
import { AddMailboxes } from './mailboxes.graphql';
import { CSV_COLUMNS, mailboxesOfCsv, type CsvRow } from './mailbox.rules';

const BATCH = 100;

interface RowResult {
  row: number;
  email: string;
  added: boolean;
  message: string;
}

export function BulkAddMailboxes(props: { workspaceId: string; onDone: () => void; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<CsvRow[] | null>(null);
  const [readProblem, setReadProblem] = useState<string | null>(null);
  const [enableWarmup, setEnableWarmup] = useState(false);
  const [results, setResults] = useState<RowResult[] | null>(null);
  const [running, setRunning] = useState(false);
  const [, add] = useMutation(AddMailboxes);

  const read = async (chosen: File | null) => {
    setFile(chosen);
    setRows(null);
    setResults(null);
    setReadProblem(null);
    if (!chosen) return;
    const { default: Papa } = await import('papaparse');
    const text = await chosen.text();
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy' });
    if (!parsed.meta.fields?.length || !parsed.data.length) {
      setReadProblem('The file holds no rows under a header line.');
      return;
    }
    setRows(mailboxesOfCsv(parsed.data));
  };

  const send = async () => {
    if (!rows) return;
    setRunning(true);
    const out: RowResult[] = rows.filter((r) => r.problem).map((r) => ({ row: r.row, email: r.email, added: false, message: r.problem! }));
    const ready = rows.filter((r) => r.mailbox);
    for (let start = 0; start < ready.length; start += BATCH) {
      const batch = ready.slice(start, start + BATCH);
      const answer = await add({ workspaceId: props.workspaceId, enableWarmup, accounts: batch.map((r) => r.mailbox!) });
      const result = answer.data?.addEmailAccounts;
      if (!result) {
        // The whole batch was refused (a field of one row is invalid): each row says what concerns it.
        const problem = problemOf(answer.error);
        for (const [i, r] of batch.entries()) {
          const own = problem?.fields.filter((f) => f.field.startsWith(`accounts.${i}.`)).map((f) => `${f.field.replace(/^accounts\.\d+\./, '')} ${f.message}`);
          out.push({ row: r.row, email: r.email, added: false, message: own?.length ? own.join('; ') : `not sent: ${problem?.message ?? 'the request failed'}` });
        }
        continue;
      }
      const failed = new Map(result.failed.map((f) => [f.email.toLowerCase(), f.error]));
      for (const r of batch) {
        const error = failed.get(r.email.toLowerCase());
        out.push({ row: r.row, email: r.email, added: !error, message: error ?? 'added' });
      }
    }
    setResults(out.sort((a, b) => a.row - b.row));
    setRunning(false);
    props.onDone();
  };

  const ready = rows?.filter((r) => r.mailbox).length ?? 0;
  const addedCount = results?.filter((r) => r.added).length ?? 0;

  return (
    <Stack gap="md">
      <Text size="sm">
        One mailbox a line, under a header line with the columns <Code>{CSV_COLUMNS.join(', ')}</Code>. The usernames default to the address; each login is checked before
        the mailbox is added.
      </Text>
      <FileInput label="CSV file" accept=".csv,text/csv" placeholder="Choose a file" value={file} onChange={read} clearable />
      {readProblem && (
        <Alert color="red" role="alert" title="The file could not be read">
          {readProblem}
        </Alert>
      )}
      {rows && !results && (
        <Text size="sm" role="status">
          {ready} of {rows.length} rows are ready to add{rows.length > ready ? '; the others are listed with their problem after adding' : ''}.
        </Text>
      )}
      <Switch label="Start warmup on the added mailboxes" checked={enableWarmup} onChange={(e) => setEnableWarmup(e.currentTarget.checked)} />
      {results && (
        <>
          <Text role="status" fw={600}>
            {addedCount} of {results.length} mailboxes added.
          </Text>
          <Table.ScrollContainer minWidth={480} mah={320}>
            <Table aria-label="Results of the CSV rows" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((r) => (
                  <Table.Tr key={r.row}>
                    <Table.Td>{r.row}</Table.Td>
                    <Table.Td>{r.email || '—'}</Table.Td>
                    <Table.Td c={r.added ? undefined : 'red.8'}>{r.added ? 'Added' : `Not added: ${r.message}`}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onClose}>
          {results ? 'Close' : 'Cancel'}
        </Button>
        {!results && (
          <Button onClick={send} loading={running} disabled={!ready}>
            Add {ready || ''} mailbox{ready === 1 ? '' : 'es'}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
