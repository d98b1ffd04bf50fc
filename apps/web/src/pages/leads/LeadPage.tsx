// A lead: its fields and custom variables, its label (changed here), and the e-mails its
// campaign sent it with their events (opens, clicks, reply, bounce, unsubscribe).
import { Link, useParams } from 'react-router';
import { Anchor, Badge, Card, Group, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import { LeadQuery, SetLeadLabel, type LeadDetail } from './leads.graphql';
import { LeadStatusBadge } from './lead-status';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const at = (iso: string | null | undefined) => (iso ? when.format(new Date(iso)) : '');

const FIELDS: [keyof LeadDetail, string][] = [
  ['email', 'E-mail'],
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['companyName', 'Company'],
  ['companyWebsite', 'Website'],
  ['jobTitle', 'Job title'],
  ['phoneNumber', 'Phone'],
  ['networkPersonUrl', 'LinkedIn profile'],
  ['networkCompanyUrl', 'LinkedIn company page'],
  ['addressLine', 'Address'],
  ['city', 'City'],
  ['state', 'State or region'],
  ['country', 'Country'],
  ['countryCode', 'Country code'],
  ['notes', 'Notes'],
];

const EVENT_NAMES: Record<string, string> = { OPEN: 'Opened', CLICK: 'Clicked', REPLY: 'Replied', BOUNCE: 'Bounced', UNSUBSCRIBE: 'Unsubscribed' };

/** The custom variables once each: a read answers `tier` and `custom_tier` for the same variable. */
function customVariables(all: unknown): [string, string][] {
  if (!all || typeof all !== 'object') return [];
  const entries = Object.entries(all as Record<string, unknown>);
  const keys = new Set(entries.map(([k]) => k));
  return entries.filter(([k]) => !(k.startsWith('custom_') && keys.has(k.slice(7)))).map(([k, v]) => [k, String(v)]);
}

/** An e-mail's body as text (an HTML body is read as the browser would show it, never run). */
function bodyText(body: string, isText: boolean): string {
  if (isText) return body;
  return new DOMParser().parseFromString(body, 'text/html').body.textContent ?? '';
}

function Pairs(props: { label: string; rows: [string, string][] }) {
  return (
    <Table aria-label={props.label} layout="fixed" verticalSpacing={6}>
      <Table.Tbody>
        {props.rows.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" w="40%" fw={500} c="dimmed">
              {name}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export default function LeadPage() {
  const workspaceId = useWorkspaceId();
  const { id = '' } = useParams();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const [read, refetch] = useQuery({ query: LeadQuery, variables: { workspaceId, id } });
  const [labelled, setLabel] = useMutation(SetLeadLabel);
  const lead = read.data?.lead;
  const labels = read.data?.workspace?.leadLabels ?? [];
  const labelProblem = problemOf(labelled.error);

  if (read.fetching && !read.data) return <Loading label="Loading the lead…" />;
  if (!lead) {
    return (
      <Stack gap="sm">
        <Anchor component={Link} to="/leads" size="sm">
          ← Leads
        </Anchor>
        {read.error ? (
          <ProblemAlert problem={problemOf(read.error)} title="The lead could not be read" />
        ) : (
          <>
            <Title order={1}>Lead not found</Title>
            <Text>This workspace has no lead with this address. It may have been deleted.</Text>
          </>
        )}
      </Stack>
    );
  }

  const name = [lead.firstName, lead.lastName].filter(Boolean).join(' ');
  const fields = FIELDS.flatMap(([key, label]): [string, string][] => (lead[key] ? [[label, String(lead[key])]] : []));
  const variables = customVariables(lead.customVariables);

  const changeLabel = async (value: string | null) => {
    const answer = await setLabel({ workspaceId, campaignId: lead.campaignId, email: lead.email, label: value || null });
    if (!answer.error) {
      notifications.show({ color: 'green', message: value ? `Label set to ${labels.find((l) => l.key === value)?.name ?? value}` : 'Label removed' });
      refetch({ requestPolicy: 'network-only' });
    }
  };

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/leads" size="sm">
        ← Leads
      </Anchor>
      <div>
        <Group gap="sm" align="center">
          <Title order={1} style={{ wordBreak: 'break-word' }}>
            {name || lead.email}
          </Title>
          <LeadStatusBadge status={lead.status} />
        </Group>
        {name && <Text c="dimmed">{lead.email}</Text>}
        <Text size="sm" mt={4}>
          In{' '}
          <Anchor component={Link} to={`/campaigns/${lead.campaignId}`}>
            {lead.campaignName}
          </Anchor>
          {' · '}step {lead.sentStep} of {lead.totalSteps} sent{lead.emailAccountName ? ` · from ${lead.emailAccountName}` : ''}
          {' · '}added {at(lead.createdAt)}
        </Text>
        {lead.bounceMsg && (
          <Text size="sm" c="red.8" mt={4}>
            Bounce: {lead.bounceMsg}
          </Text>
        )}
      </div>

      <Select
        label="Label"
        data={[{ value: '', label: 'No label' }, ...labels.map((l) => ({ value: l.key, label: l.name }))]}
        value={lead.label ?? ''}
        onChange={(v) => void changeLabel(v)}
        allowDeselect={false}
        disabled={!canEdit || labelled.fetching}
        error={fieldProblem(labelProblem, 'label')}
        w={{ base: '100%', xs: 280 }}
      />
      <ProblemAlert problem={labelProblem} fields={['label']} title="The label could not be changed" />

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <section aria-labelledby="fields-title">
          <Title order={2} size="h3" id="fields-title" mb="xs">
            Fields
          </Title>
          <Pairs label="Fields" rows={fields} />
        </section>
        <section aria-labelledby="variables-title">
          <Title order={2} size="h3" id="variables-title" mb="xs">
            Custom variables
          </Title>
          {variables.length ? <Pairs label="Custom variables" rows={variables} /> : <Text c="dimmed">None.</Text>}
        </section>
      </SimpleGrid>

      <section aria-labelledby="emails-title">
        <Title order={2} size="h3" id="emails-title" mb="xs">
          E-mails
        </Title>
        {!lead.messages.length ? (
          <Text c="dimmed">Nothing was sent to this lead yet.</Text>
        ) : (
          <Stack gap="sm">
            {lead.messages.map((m) => (
              <Card key={m.id} withBorder padding="md" component="article" aria-label={`Step ${m.step}: ${m.subject}`}>
                <Group justify="space-between" gap="xs" align="flex-start">
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} style={{ wordBreak: 'break-word' }}>
                      {m.subject || '(no subject)'}
                    </Text>
                    <Text size="sm" c="dimmed">
                      Step {m.step}, variation {m.variationLabel} · sent {at(m.sentAt)}
                    </Text>
                  </div>
                  <Group gap={4}>
                    {m.openedAt && <Badge variant="light" color="blue">Opened</Badge>}
                    {m.repliedAt && <Badge variant="light" color="green">Replied</Badge>}
                    {m.bouncedAt && <Badge variant="light" color="red">Bounced</Badge>}
                    {m.unsubscribedAt && <Badge variant="light" color="orange">Unsubscribed</Badge>}
                  </Group>
                </Group>
                {m.events.length > 0 && (
                  <ul aria-label={`Events of step ${m.step}`} style={{ margin: '8px 0 0', paddingLeft: 20 }}>
                    {m.events.map((e) => (
                      <li key={e.id}>
                        <Text size="sm" component="span">
                          {EVENT_NAMES[e.type] ?? e.type} · {at(e.occurredAt)}
                          {e.isMachine ? ' (by a mail scanner or proxy)' : ''}
                        </Text>
                      </li>
                    ))}
                  </ul>
                )}
                <details style={{ marginTop: 8 }}>
                  <summary>
                    <Text size="sm" component="span">
                      Show the e-mail
                    </Text>
                  </summary>
                  <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {bodyText(m.body, m.isText)}
                  </Text>
                </details>
              </Card>
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}
