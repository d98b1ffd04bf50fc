// A variation composed by the sending engine's composer for a chosen lead (or sample values),
// as that lead would receive it, and a test send of it to an address. The HTML body is shown
// inside a sandboxed iframe (sandbox="", srcdoc): never in the app's own DOM.
import { useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { PreviewLeadsQuery, SendCampaignTest, StepPreviewQuery, type PreviewLead } from './preview.graphql';

const SAMPLE = 'sample';

function leadLabel(lead: PreviewLead): string {
  const name = [lead.firstName, lead.lastName].filter(Boolean).join(' ');
  return name ? `${name} <${lead.email}>` : lead.email;
}

/** The "Preview" button of a variation and, once opened, its panel. */
export function VariationPreview(props: { workspaceId: string; campaignId: string; step: number; variation: string; readOnly: boolean }) {
  const [open, setOpen] = useState(false);
  const name = `step ${props.step}, variation ${props.variation}`;
  return (
    <Stack gap="xs">
      <Button variant="default" size="xs" w="fit-content" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? `Hide the preview of ${name}` : `Preview ${name}`}
      </Button>
      {open && <PreviewPanel {...props} name={name} />}
    </Stack>
  );
}

function PreviewPanel(props: { workspaceId: string; campaignId: string; step: number; variation: string; readOnly: boolean; name: string }) {
  const [choices] = useQuery({ query: PreviewLeadsQuery, variables: { workspaceId: props.workspaceId, campaignId: props.campaignId } });
  const leads = choices.data?.workspace?.leads.edges.map((e) => e.node) ?? [];
  const mailboxes = choices.data?.workspace?.emailAccounts.edges.map((e) => e.node) ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  // Until a choice is made: the campaign's first lead, or sample values when it has none.
  const forLead = chosen ?? (leads[0]?.id ?? SAMPLE);
  const sample = forLead === SAMPLE;
  const [preview] = useQuery({
    query: StepPreviewQuery,
    variables: { workspaceId: props.workspaceId, id: props.campaignId, step: props.step, variation: props.variation, leadId: sample ? null : forLead, sample: sample ? true : null },
    pause: choices.fetching && !choices.data,
  });
  const composed = preview.data?.campaign?.preview;
  const who = sample ? 'sample values' : (composed?.leadEmail ?? leads.find((l) => l.id === forLead)?.email ?? 'the lead');

  return (
    <Card withBorder padding="sm" component="section" aria-label={`Preview of ${props.name}`}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Composed by the sending engine from the saved sequence, exactly as it would be sent: save the sequence to preview your changes.
        </Text>
        {choices.error && <ProblemAlert problem={problemOf(choices.error)} title="The campaign's leads could not be read" />}
        <Select
          label={`Preview ${props.name} for`}
          description="The campaign's first 100 leads, or sample values"
          searchable
          maw={480}
          nothingFoundMessage="No lead of this campaign matches"
          data={[{ value: SAMPLE, label: 'Sample values' }, ...leads.map((l) => ({ value: l.id, label: leadLabel(l) }))]}
          value={forLead}
          allowDeselect={false}
          onChange={(value) => setChosen(value)}
        />
        {preview.fetching && !composed && <Loading label="Composing the preview…" />}
        {preview.error && <ProblemAlert problem={problemOf(preview.error)} title="The preview could not be composed" />}
        {composed && (
          <Stack gap="xs" aria-live="polite">
            {composed.missing.length > 0 && (
              <Alert color="yellow" title="Merge fields without a value">
                {`No value for ${composed.missing.map((m) => `{{${m}}}`).join(', ')} for ${who}: the engine would skip this lead rather than send it. Add a fallback, like {{first_name|there}}, or fill the field.`}
              </Alert>
            )}
            <Text size="sm">
              <Text span fw={600}>
                From:{' '}
              </Text>
              {composed.senderEmail ?? 'no mailbox yet (sender fields are empty)'}
              {' · '}
              <Text span fw={600}>
                To:{' '}
              </Text>
              {who}
            </Text>
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              <Text span fw={600}>
                Subject:{' '}
              </Text>
              <span data-testid="preview-subject">{composed.subject || '(no subject)'}</span>
            </Text>
            {composed.html !== null ? (
              <iframe
                title={`E-mail body of ${props.name} for ${who}`}
                sandbox=""
                srcDoc={composed.html}
                style={{ width: '100%', height: 260, border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4, background: 'white', resize: 'vertical' }}
              />
            ) : (
              <Text component="pre" size="sm" p="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4, margin: 0 }}>
                {composed.text}
              </Text>
            )}
          </Stack>
        )}
        {!props.readOnly && (
          <TestSendForm {...props} mailboxes={mailboxes} leadId={sample ? null : forLead} sample={sample} />
        )}
      </Stack>
    </Card>
  );
}

function TestSendForm(props: {
  workspaceId: string;
  campaignId: string;
  step: number;
  variation: string;
  name: string;
  leadId: string | null;
  sample: boolean;
  mailboxes: { id: string; email: string; status: string }[];
}) {
  const [to, setTo] = useState('');
  const active = props.mailboxes.filter((m) => m.status === 'ACTIVE');
  const [mailbox, setMailbox] = useState<string | null>(null);
  const from = mailbox ?? active[0]?.id ?? null;
  const [sent, send] = useMutation(SendCampaignTest);
  const [answer, setAnswer] = useState<string | null>(null);
  const problem = problemOf(sent.error);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setAnswer(null);
    if (!from) return;
    const result = await send({
      workspaceId: props.workspaceId,
      campaignId: props.campaignId,
      step: props.step,
      variation: props.variation,
      leadId: props.leadId,
      sample: props.sample ? true : null,
      to: to.trim(),
      emailAccountId: from,
    });
    const done = result.data?.sendCampaignTest;
    if (done) setAnswer(`Sent to ${done.to} from ${done.from} with the subject “${done.subject}”.${done.missing.length ? ` Fields without a value were sent as written: ${done.missing.map((m) => `{{${m}}}`).join(', ')}.` : ''}`);
  };

  return (
    <form onSubmit={submit} aria-label={`Send a test of ${props.name}`}>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Send a test
        </Text>
        <Group align="flex-start" gap="sm">
          <TextInput
            label="Send a test to"
            type="email"
            required
            w={280}
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={fieldProblem(problem, 'to')}
          />
          <Select
            label="From mailbox"
            w={280}
            data={active.map((m) => ({ value: m.id, label: m.email }))}
            value={from}
            onChange={setMailbox}
            allowDeselect={false}
            placeholder={active.length ? undefined : 'No active mailbox'}
            error={fieldProblem(problem, 'email_account_id')}
          />
        </Group>
        <ProblemAlert problem={problem} fields={['to', 'email_account_id']} title="The test was not sent" />
        <Group gap="sm">
          <Button type="submit" size="xs" loading={sent.fetching} disabled={!from}>
            Send the test
          </Button>
          <Text size="sm" role="status">
            {answer ?? (active.length ? 'The subject starts with “[Test] ”; nothing is recorded as a campaign send.' : 'Connect an active mailbox to send a test.')}
          </Text>
        </Group>
      </Stack>
    </form>
  );
}
