// One mailbox: its state and health (with what lowered it), its sending settings and warmup
// settings (saved through the bulk update operation on this one id), warmup on/off, and its
// warmup statistics of the last 14 days.
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Switch, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import { MailboxQuery, SetSending, SetWarmup, UpdateMailboxes, type Mailbox } from './mailboxes.graphql';
import { act, HealthBadge, HealthReasons, isoDay, MailboxStatusBadge } from './mailbox-parts';

const asNumber = (value: string | number) => (typeof value === 'number' ? value : value === '' ? Number.NaN : Number(value));

export default function MailboxPage() {
  const workspaceId = useWorkspaceId();
  const { id = '' } = useParams();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const days = useMemo(() => ({ startDate: isoDay(13), endDate: isoDay(0) }), []);
  const [read, refetch] = useQuery({ query: MailboxQuery, variables: { workspaceId, id, ...days } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const mailbox = read.data?.workspace?.emailAccounts.edges[0]?.node;
  const stats = read.data?.workspace?.warmupStats;
  const problem = problemOf(read.error);

  const back = (
    <Anchor component={Link} to="/mailboxes" size="sm">
      ← All mailboxes
    </Anchor>
  );
  if (read.fetching && !read.data) return <Loading label="Loading the mailbox…" />;
  if (!mailbox) {
    return (
      <Stack gap="sm">
        {back}
        {problem ? <ProblemAlert problem={problem} title="The mailbox could not be read" /> : <Title order={1}>No such mailbox in this workspace</Title>}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {back}
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {mailbox.email}
          </Title>
          <Group gap="xs" mt={4}>
            <MailboxStatusBadge status={mailbox.status} />
            <HealthBadge score={mailbox.payload.analytics.healthScores.healthScore} />
          </Group>
        </div>
        {canEdit && <SendingToggle workspaceId={workspaceId} mailbox={mailbox} onDone={reload} />}
      </Group>
      {problem && <ProblemAlert problem={problem} title="The mailbox could not be read again" />}

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md" component="section" aria-labelledby="health-title">
          <Title order={2} size="h3" id="health-title" mb="xs">
            Health
          </Title>
          <HealthReasons mailbox={mailbox} />
          {mailbox.lastError && (
            <Text size="sm" c="red.8" mt="xs">
              Last connection problem: {mailbox.lastError}
            </Text>
          )}
          <Text size="sm" mt="xs">
            Today: {mailbox.payload.analytics.dailyCounters.emailSentToday} of {mailbox.payload.dailyLimit} campaign e-mails, {mailbox.payload.analytics.dailyCounters.warmupEmailSentToday} warmup e-mails.
          </Text>
          <Text size="sm" c="dimmed" mt="xs">
            SMTP {mailbox.payload.smtpHost}:{mailbox.payload.smtpPort} · IMAP {mailbox.payload.imapHost}:{mailbox.payload.imapPort}
          </Text>
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="sending-title">
          <Title order={2} size="h3" id="sending-title" mb="xs">
            Sending
          </Title>
          <SendingForm key={mailbox.id} workspaceId={workspaceId} mailbox={mailbox} readOnly={!canEdit} onSaved={reload} />
        </Paper>
      </SimpleGrid>

      <Paper withBorder p="md" component="section" aria-labelledby="warmup-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h3" id="warmup-title">
            Warmup
          </Title>
          <WarmupSwitch workspaceId={workspaceId} mailbox={mailbox} disabled={!canEdit} onDone={reload} />
        </Group>
        <WarmupForm key={mailbox.id} workspaceId={workspaceId} mailbox={mailbox} readOnly={!canEdit} onSaved={reload} />
      </Paper>

      <Paper withBorder p="md" component="section" aria-labelledby="stats-title">
        <Title order={2} size="h3" id="stats-title" mb="xs">
          Warmup of the last 14 days
        </Title>
        {!stats ? (
          <Text size="sm">No statistics.</Text>
        ) : stats.totalWarmupSent === 0 ? (
          <Text size="sm">No warmup e-mail was sent in these days.</Text>
        ) : (
          <Stack gap="xs">
            <Text size="sm">
              {stats.totalWarmupSent} sent to {stats.totalInboxes} mailboxes: {stats.inboxPercent} % in the inbox, {stats.spamPercent} % in spam, {stats.promotionPercent} % in promotions.
            </Text>
            <Table.ScrollContainer minWidth={360}>
              <Table aria-label="Warmup by day" verticalSpacing={4}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Day</Table.Th>
                    <Table.Th ta="right">Sent</Table.Th>
                    <Table.Th ta="right">Inbox</Table.Th>
                    <Table.Th ta="right">Spam</Table.Th>
                    <Table.Th ta="right">Promotions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {stats.chartData.map((d) => (
                    <Table.Tr key={d.date}>
                      <Table.Td>{d.date}</Table.Td>
                      <Table.Td ta="right">{d.sent}</Table.Td>
                      <Table.Td ta="right">{d.inbox}</Table.Td>
                      <Table.Td ta="right">{d.spam}</Table.Td>
                      <Table.Td ta="right">{d.promotion}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}

function SendingToggle(props: { workspaceId: string; mailbox: Mailbox; onDone: () => void }) {
  const [state, set] = useMutation(SetSending);
  const m = props.mailbox;
  if (m.status === 'DISCONNECTED') return null;
  const pause = m.status === 'ACTIVE';
  return (
    <Button
      variant="default"
      loading={state.fetching}
      onClick={() => act(`${pause ? 'pause' : 'resume'} sending from ${m.email}`, () => set({ workspaceId: props.workspaceId, ids: [m.id], status: pause ? 'PAUSED' : 'ACTIVE' }), props.onDone)}
    >
      {pause ? 'Pause sending' : 'Resume sending'}
    </Button>
  );
}

function WarmupSwitch(props: { workspaceId: string; mailbox: Mailbox; disabled: boolean; onDone: () => void }) {
  const [, set] = useMutation(SetWarmup);
  const on = props.mailbox.warmupStatus === 'ACTIVE';
  return (
    <Switch
      label={on ? 'Warmup on' : 'Warmup off'}
      checked={on}
      disabled={props.disabled}
      onChange={(e) => {
        const next = e.currentTarget.checked;
        void act(`${next ? 'start' : 'stop'} the warmup`, () => set({ workspaceId: props.workspaceId, ids: [props.mailbox.id], warmupStatus: next ? 'ACTIVE' : 'INACTIVE' }), props.onDone);
      }}
    />
  );
}

function SendingForm(props: { workspaceId: string; mailbox: Mailbox; readOnly: boolean; onSaved: () => void }) {
  const [form, setForm] = useState({ dailyLimit: props.mailbox.payload.dailyLimit as number | string, sendingGap: props.mailbox.payload.sendingGap as number | string });
  const [saved, save] = useMutation(UpdateMailboxes);
  const problem = problemOf(saved.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await save({ workspaceId: props.workspaceId, ids: [props.mailbox.id], dailyLimit: asNumber(form.dailyLimit), sendingGap: asNumber(form.sendingGap) });
    if (!answer.error) {
      notifications.show({ color: 'green', message: 'The sending settings are saved.' });
      props.onSaved();
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Sending settings">
      <Stack gap="sm">
        <ProblemAlert problem={problem} fields={['daily_limit', 'sending_gap']} title="The settings were not saved" />
        <Group grow align="flex-start">
          <NumberInput label="Daily limit (e-mails a day)" min={0} max={10000} value={form.dailyLimit} disabled={props.readOnly} onChange={(v) => setForm((f) => ({ ...f, dailyLimit: v }))} error={fieldProblem(problem, 'daily_limit')} />
          <NumberInput label="Minutes between sends" min={0} max={1440} value={form.sendingGap} disabled={props.readOnly} onChange={(v) => setForm((f) => ({ ...f, sendingGap: v }))} error={fieldProblem(problem, 'sending_gap')} />
        </Group>
        <Button type="submit" loading={saved.fetching} disabled={props.readOnly} w="fit-content">
          Save sending
        </Button>
      </Stack>
    </form>
  );
}

function WarmupForm(props: { workspaceId: string; mailbox: Mailbox; readOnly: boolean; onSaved: () => void }) {
  const w = props.mailbox.payload.warmup;
  const [form, setForm] = useState({
    warmupLimit: w.limit as number | string,
    warmupIncrement: w.increment as number | string,
    warmupReplyRate: w.replyRate as number | string,
    warmupCustomWords: w.warmupCustomWords,
    warmupSignature: w.warmupSignature,
  });
  const [saved, save] = useMutation(UpdateMailboxes);
  const problem = problemOf(saved.error);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await save({
      workspaceId: props.workspaceId,
      ids: [props.mailbox.id],
      ...form,
      warmupLimit: asNumber(form.warmupLimit),
      warmupIncrement: asNumber(form.warmupIncrement),
      warmupReplyRate: asNumber(form.warmupReplyRate),
    });
    if (!answer.error) {
      notifications.show({ color: 'green', message: 'The warmup settings are saved.' });
      props.onSaved();
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Warmup settings">
      <Stack gap="sm">
        <ProblemAlert problem={problem} fields={['warmup_limit', 'warmup_increment', 'warmup_reply_rate', 'warmup_custom_words', 'warmup_signature']} title="The warmup settings were not saved" />
        {w.startDate && (
          <Text size="sm" c="dimmed">
            Warming up since {w.startDate.slice(0, 10)}.
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <NumberInput label="Warmup e-mails a day at most" min={1} max={500} value={form.warmupLimit} disabled={props.readOnly} onChange={(v) => set('warmupLimit', v)} error={fieldProblem(problem, 'warmup_limit')} />
          <NumberInput label="Daily ramp-up" description="0: the limit from the first day" min={0} max={100} value={form.warmupIncrement} disabled={props.readOnly} onChange={(v) => set('warmupIncrement', v)} error={fieldProblem(problem, 'warmup_increment')} />
          <NumberInput label="Reply rate (%)" min={0} max={100} value={form.warmupReplyRate} disabled={props.readOnly} onChange={(v) => set('warmupReplyRate', v)} error={fieldProblem(problem, 'warmup_reply_rate')} />
        </SimpleGrid>
        <TextInput label="Custom words (comma-separated)" value={form.warmupCustomWords} disabled={props.readOnly} onChange={(e) => set('warmupCustomWords', e.currentTarget.value)} error={fieldProblem(problem, 'warmup_custom_words')} />
        <Textarea label="Warmup signature" autosize minRows={2} value={form.warmupSignature} disabled={props.readOnly} onChange={(e) => set('warmupSignature', e.currentTarget.value)} error={fieldProblem(problem, 'warmup_signature')} />
        <Button type="submit" loading={saved.fetching} disabled={props.readOnly} w="fit-content">
          Save warmup
        </Button>
      </Stack>
    </form>
  );
}
