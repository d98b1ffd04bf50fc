// Importing leads from a CSV file: the file is read in the browser (papaparse), each column is
// mapped to a lead field or a custom variable, the duplicate handling is `/lead/add`'s, and the
// rows go to the server in chunks of CHUNK rows (`addLeads`), the progress bar advancing on each
// chunk the server accepted. A failure stops the upload, says which rows were not sent, and keeps
// the file, the mapping and the choices so that "Upload the rest" sends only those.
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Checkbox, FileInput, Group, Progress, Radio, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useClient, useQuery } from 'urql';
import { fieldProblem, problemOf, type Problem } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import { AddLeads, LeadChoicesQuery } from './leads.graphql';
import { LEAD_FIELDS, NO_COUNTS, addCounts, guessMapping, leadOfRow, mappingProblem, planChunks, rowRanges, variableName, type ColumnTarget, type UploadCounts } from './import.rules';

/** Rows per request. */
const CHUNK = 250;
const number = new Intl.NumberFormat();

interface CsvFile {
  name: string;
  headers: string[];
  rows: string[][];
}

/** `/lead/add`'s skip flags: one applies at a time (the server applies the widest given). */
const SKIP_RULES = {
  none: { label: 'Add them anyway', flag: null },
  workspace: { label: 'Skip a lead already in any other campaign of the workspace', flag: 'skipIfInWorkspace' },
  activePaused: { label: 'Skip a lead already in an active or paused campaign', flag: 'skipLeadInActivePauseCamp' },
  active: { label: 'Skip a lead already in an active campaign', flag: 'skipLeadForActiveOnlyCamp' },
} as const;
type SkipRule = keyof typeof SKIP_RULES;

interface Upload {
  chunks: number[][];
  /** The first chunk not accepted yet. */
  next: number;
  accepted: number;
  counts: UploadCounts;
  state: 'running' | 'failed' | 'done';
  problem?: Problem;
}

async function readCsv(file: File): Promise<CsvFile> {
  const { default: Papa } = await import('papaparse');
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(file, {
      skipEmptyLines: 'greedy',
      complete: (result) => {
        const [headers, ...rows] = result.data;
        if (!headers || !rows.length) reject(new Error('The file has no rows under its header row. The first row must name the columns.'));
        else resolve({ name: file.name, headers: headers.map((h) => h.trim()), rows });
      },
      error: (error) => reject(new Error(`The file could not be read as CSV: ${error.message}`)),
    });
  });
}

const targetValue = (t: ColumnTarget) => (t.kind === 'field' ? `field:${t.field}` : t.kind);

export default function LeadImportPage() {
  const workspaceId = useWorkspaceId();
  const client = useClient();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const [params] = useSearchParams();
  const [choices] = useQuery({ query: LeadChoicesQuery, variables: { workspaceId } });
  const campaigns = (choices.data?.workspace?.campaigns.edges ?? []).map((e) => e.node).filter((c) => c.type === 'parent' && c.status !== 'ARCHIVED');

  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<CsvFile | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnTarget[]>([]);
  const [campaignId, setCampaignId] = useState<string | null>(params.get('campaign'));
  const [skipRule, setSkipRule] = useState<SkipRule>('none');
  const [overwrite, setOverwrite] = useState(false);
  const [resume, setResume] = useState(false);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [tried, setTried] = useState(false);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setCsv(null);
    setUpload(null);
    setFileProblem(null);
    if (!chosen) return;
    try {
      const read = await readCsv(chosen);
      setCsv(read);
      setMapping(guessMapping(read.headers));
    } catch (error) {
      setFileProblem((error as Error).message);
    }
  };

  const samples = useMemo(() => csv?.headers.map((_, i) => csv.rows.find((r) => (r[i] ?? '').trim())?.[i]?.trim() ?? '') ?? [], [csv]);
  const mapped = mappingProblem(mapping);
  const running = upload?.state === 'running';

  /** Sends the chunks from `from.next` on, one after the other; stops at the first failure. */
  const send = async (from: Upload) => {
    if (!csv || !campaignId) return;
    let state: Upload = { ...from, state: 'running', problem: undefined };
    setUpload(state);
    const flag = SKIP_RULES[skipRule].flag;
    for (let i = state.next; i < state.chunks.length; i++) {
      const chunk = state.chunks[i]!;
      const answer = await client
        .mutation(AddLeads, {
          workspaceId,
          campaignId,
          leads: chunk.map((row) => leadOfRow(csv.rows[row]!, mapping)),
          ...(flag ? { [flag]: true } : {}),
          isOverwrite: overwrite,
          resumeCampIfCompleted: resume,
        })
        .toPromise();
      const result = answer.data?.addLeads;
      if (!result) {
        state = { ...state, state: 'failed', problem: problemOf(answer.error) ?? { message: 'The server did not accept the rows.', fields: [] } };
        setUpload(state);
        return;
      }
      state = { ...state, next: i + 1, accepted: state.accepted + chunk.length, counts: addCounts(state.counts, result) };
      setUpload(state);
    }
    setUpload({ ...state, state: 'done' });
  };

  const start = () => {
    setTried(true);
    if (!csv || mapped || !campaignId) return;
    const email = mapping.findIndex((t) => t.kind === 'field' && t.field === 'email');
    const chunks = planChunks(
      csv.rows.map((r) => r[email] ?? ''),
      CHUNK,
    );
    void send({ chunks, next: 0, accepted: 0, counts: NO_COUNTS, state: 'running' });
  };

  if (!canEdit) {
    return (
      <Stack>
        <Title order={1}>Import leads</Title>
        <Alert color="gray">Your role is read-only: you can read the leads, not import them.</Alert>
      </Stack>
    );
  }

  const total = csv?.rows.length ?? 0;
  const percent = upload && total ? Math.round((upload.accepted / total) * 100) : 0;
  const left = upload?.state === 'failed' ? upload.chunks.slice(upload.next).flat() : [];
  const campaignError = fieldProblem(upload?.problem, 'campaign_id', 'campaignId') ?? (tried && !campaignId ? 'Choose the campaign the leads go to' : undefined);

  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to="/leads" size="sm">
        ← Leads
      </Anchor>
      <Title order={1}>Import leads from a CSV file</Title>

      <fieldset disabled={running} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          <FileInput
            label="CSV file"
            description="The first row names the columns; one lead per row."
            placeholder="Choose a file"
            accept=".csv,text/csv"
            value={file}
            onChange={(f) => void choose(f)}
            error={fileProblem}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
            w={{ base: '100%', sm: 420 }}
          />

          {csv && (
            <>
              <Text>
                {csv.name}: {number.format(total)} {total === 1 ? 'row' : 'rows'}, {csv.headers.length} columns.
              </Text>
              <section aria-labelledby="mapping-title">
                <Title order={2} size="h3" id="mapping-title" mb="xs">
                  Columns
                </Title>
                <Text size="sm" c="dimmed" mb="sm">
                  Each column becomes a lead field, a custom variable (used in e-mails as {'{{name}}'}), or is left out.
                </Text>
                {tried && mapped && (
                  <Alert color="red" role="alert" mb="sm">
                    {mapped}
                  </Alert>
                )}
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  {csv.headers.map((header, i) => {
                    const target = mapping[i];
                    const variable = target?.kind === 'variable' ? target.name : variableName(header) || `column_${i + 1}`;
                    return (
                      <Select
                        key={i}
                        label={`Column “${header || `#${i + 1}`}”`}
                        description={samples[i] ? `Example: ${samples[i]}` : 'Empty in every row'}
                        data={[
                          { group: 'Lead fields', items: LEAD_FIELDS.map((f) => ({ value: `field:${f.field}`, label: f.label })) },
                          {
                            group: 'Other',
                            items: [
                              { value: 'variable', label: `Custom variable {{${variable}}}` },
                              { value: 'ignore', label: 'Leave out' },
                            ],
                          },
                        ]}
                        value={target ? targetValue(target) : 'ignore'}
                        onChange={(value) => {
                          const next = [...mapping];
                          next[i] = value?.startsWith('field:') ? { kind: 'field', field: value.slice(6) as never } : value === 'variable' ? { kind: 'variable', name: variable } : { kind: 'ignore' };
                          setMapping(next);
                        }}
                        allowDeselect={false}
                      />
                    );
                  })}
                </SimpleGrid>
              </section>

              <Select
                label="Campaign"
                description="The campaign the leads are added to"
                placeholder={choices.fetching ? 'Loading…' : 'Choose a campaign'}
                data={campaigns.map((c) => ({ value: c.id, label: c.name }))}
                value={campaignId}
                onChange={setCampaignId}
                searchable
                required
                error={campaignError}
                w={{ base: '100%', sm: 420 }}
              />
              {choices.error && <ProblemAlert problem={problemOf(choices.error)} title="The campaigns could not be read" />}

              <Radio.Group label="Leads already in another campaign" value={skipRule} onChange={(v) => setSkipRule(v as SkipRule)}>
                <Stack gap="xs" mt="xs">
                  {Object.entries(SKIP_RULES).map(([value, rule]) => (
                    <Radio key={value} value={value} label={rule.label} />
                  ))}
                </Stack>
              </Radio.Group>
              <Stack gap="xs">
                <Checkbox
                  label="Update leads already in this campaign with the file's values"
                  description="Otherwise they are left as they are and counted as already in the campaign."
                  checked={overwrite}
                  onChange={(e) => setOverwrite(e.currentTarget.checked)}
                />
                <Checkbox label="Resume the campaign if it is completed" checked={resume} onChange={(e) => setResume(e.currentTarget.checked)} />
              </Stack>

              {upload?.state !== 'failed' && (
                <Group>
                  <Button onClick={start} loading={running} disabled={upload?.state === 'done'}>
                    Upload {number.format(total)} {total === 1 ? 'row' : 'rows'}
                  </Button>
                </Group>
              )}
            </>
          )}
        </Stack>
      </fieldset>

      {upload && (
        <Stack gap="xs">
          <Progress value={percent} aria-label="Upload progress" size="lg" animated={running} />
          <Text size="sm" aria-live="polite">
            {number.format(upload.accepted)} of {number.format(total)} rows accepted by the server
            {running ? '…' : '.'}
          </Text>
        </Stack>
      )}

      {upload?.state === 'failed' && (
        <Alert color="red" role="alert" title="The upload stopped">
          <Stack gap="xs">
            <Text>{upload.problem?.message}</Text>
            <Text>
              Not uploaded: {left.length === 1 ? 'row' : 'rows'} {rowRanges(left)} of the file ({number.format(left.length)} {left.length === 1 ? 'row' : 'rows'}; the header is row 1). Rows sent before were
              added. The file, the columns and the choices are kept: fix the problem and upload the rest.
            </Text>
            <Group>
              <Button onClick={() => void send(upload)}>Upload the rest</Button>
            </Group>
          </Stack>
        </Alert>
      )}

      {upload && upload.accepted > 0 && (upload.state === 'done' || upload.state === 'failed') && <UploadResult counts={upload.counts} campaignId={campaignId} done={upload.state === 'done'} />}
    </Stack>
  );
}

function UploadResult(props: { counts: UploadCounts; campaignId: string | null; done: boolean }) {
  const c = props.counts;
  const lines: [string, number][] = [
    ['Added', c.leadsUploaded],
    ['Already in the campaign', c.alreadyInCampaign],
    ['Repeated in the file', c.duplicateEmailCount],
    ['Invalid addresses', c.invalidEmailCount],
    ['Skipped (blocklist or another campaign)', c.skipped],
    ['Over the plan allowance', c.overflowedLeadCount],
  ];
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {props.done ? 'Import finished' : 'Rows uploaded so far'}
      </Title>
      <Table aria-label="Import result" w={{ base: '100%', sm: 420 }} withRowBorders>
        <Table.Tbody>
          {lines.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={500}>
                {label}
              </Table.Th>
              <Table.Td ta="right">{number.format(value)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {props.done && (
        <Group>
          <Button component={Link} to={props.campaignId ? `/leads?campaign=${props.campaignId}` : '/leads'}>
            See the leads
          </Button>
        </Group>
      )}
    </Stack>
  );
}
