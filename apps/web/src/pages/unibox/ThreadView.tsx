// One conversation of the unibox: its e-mails in order (sender, time, the text of the body: an
// e-mail's HTML is never put in the page), the lead's label, read/unread, reply and forward.
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { MarkRead, MarkUnread, SetLeadLabel, ThreadQuery, type ThreadEmail } from './unibox.graphql';
import { Composer, type ComposerMode } from './Composer';
import { formatBytes } from './mail-text';
import { usePolling } from './usePolling';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function sender(email: ThreadEmail): string {
  const first = email.from[0];
  return first?.name ? `${first.name} <${first.address}>` : email.fromAddressEmail;
}

function EmailCard(props: { email: ThreadEmail }) {
  const { email } = props;
  const time = when.format(new Date(email.timestampCreated));
  const ours = email.direction === 'OUT';
  return (
    <Paper component="article" withBorder p="md" bg={ours ? 'gray.0' : undefined} aria-label={`E-mail from ${email.fromAddressEmail}, ${time}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {sender(email)}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            To {email.toAddressEmailList || '—'}
            {email.ccAddressEmailList ? ` · Cc ${email.ccAddressEmailList}` : ''}
          </Text>
        </div>
        <Group gap="xs">
          {ours && (
            <Badge variant="light" color="gray">
              Sent
            </Badge>
          )}
          <Text size="sm" c="dimmed" component="time" dateTime={email.timestampCreated}>
            {time}
          </Text>
        </Group>
      </Group>
      {/* The text of the e-mail, as text: React escapes it, so nothing of a sender's markup runs here. */}
      <Text mt="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {email.body?.text || email.contentPreview}
      </Text>
      {email.attachments.length > 0 && (
        <Text size="sm" c="dimmed" mt="sm">
          Attached: {email.attachments.map((a) => `${a.fileName} (${formatBytes(a.size)})`).join(', ')}
        </Text>
      )}
    </Paper>
  );
}

export function ThreadView(props: {
  workspaceId: string;
  threadId: string;
  labels: { key: string; name: string }[];
  canEdit: boolean;
  /** Back to the list (narrow screens). */
  back: boolean;
  /** Something of the thread changed: the list reads again. */
  onChanged: () => void;
}) {
  const { workspaceId, threadId } = props;
  const [result, reexecute] = useQuery({ query: ThreadQuery, variables: { workspaceId, threadId } });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  usePolling(refresh);
  const [marking, markRead] = useMutation(MarkRead);
  const [unmarking, markUnread] = useMutation(MarkUnread);
  const [labelling, setLabel] = useMutation(SetLeadLabel);
  const [composer, setComposer] = useState<{ mode: ComposerMode; email: ThreadEmail } | null>(null);

  const thread = result.data?.uniboxThreads.edges[0]?.node;
  const emails = [...(thread?.emails.edges.map((e) => e.node) ?? [])].reverse();
  const latestReceived = [...emails].reverse().find((e) => e.direction === 'IN') ?? emails[emails.length - 1];
  const labelProblem = problemOf(labelling.error);

  const changed = () => {
    refresh();
    props.onChanged();
  };
  const act = async (what: string, run: () => Promise<{ error?: Parameters<typeof problemOf>[0] }>) => {
    const problem = problemOf((await run()).error);
    if (problem) notifications.show({ color: 'red', title: `Could not ${what}`, message: problem.message });
    changed();
  };

  const backLink = props.back && (
    <Anchor component={Link} to="/unibox" size="sm">
      ← Back to the inbox
    </Anchor>
  );
  if (result.fetching && !result.data) return <Loading label="Loading the conversation…" />;
  if (!thread) {
    return (
      <Stack gap="sm">
        {backLink}
        {result.error ? (
          <ProblemAlert problem={problemOf(result.error)} title="The conversation could not be read" />
        ) : (
          <Alert color="gray" title="No such conversation">
            This conversation is not in the inbox (it may have been deleted).
          </Alert>
        )}
      </Stack>
    );
  }

  const lead = thread.lead;
  const labelData = [{ value: '', label: 'No label' }, ...props.labels.map((l) => ({ value: l.key, label: l.name }))];
  const labelName = props.labels.find((l) => l.key === lead?.label)?.name;

  return (
    <Stack gap="md">
      {backLink}
      <div>
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {thread.subject || '(no subject)'}
        </Title>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {[thread.leadEmail || 'No lead', thread.campaign?.name && `campaign ${thread.campaign.name}`, thread.eaccount && `mailbox ${thread.eaccount}`].filter(Boolean).join(' · ')}
        </Text>
      </div>
      {result.error && <ProblemAlert problem={problemOf(result.error)} title="The conversation could not be read again" />}

      <Group gap="sm" align="flex-end" wrap="wrap">
        {lead &&
          (props.canEdit ? (
            <Select
              label="Lead label"
              data={labelData}
              value={lead.label ?? ''}
              onChange={async (value) => {
                const label = value || null;
                const answer = await setLabel({ workspaceId, campaignId: lead.campaignId, email: lead.email, label });
                if (!answer.error) notifications.show({ color: 'green', message: label ? `Label set: ${props.labels.find((l) => l.key === label)?.name ?? label}` : 'Label removed' });
                changed();
              }}
              allowDeselect={false}
              disabled={labelling.fetching}
              error={labelProblem?.message}
              w={{ base: '100%', xs: 220 }}
            />
          ) : (
            <Text size="sm">Lead label: {labelName ?? 'none'}</Text>
          ))}
        {props.canEdit && (
          <>
            {thread.isUnread ? (
              <Button variant="default" loading={marking.fetching} onClick={() => act('mark the conversation read', () => markRead({ workspaceId, threadId }))}>
                Mark as read
              </Button>
            ) : (
              <Button variant="default" loading={unmarking.fetching} onClick={() => act('mark the conversation unread', () => markUnread({ workspaceId, threadId }))}>
                Mark as unread
              </Button>
            )}
            {latestReceived && (
              <>
                <Button onClick={() => setComposer({ mode: 'reply', email: latestReceived })}>Reply</Button>
                <Button variant="default" onClick={() => setComposer({ mode: 'forward', email: latestReceived })}>
                  Forward
                </Button>
              </>
            )}
          </>
        )}
      </Group>
      <Text size="sm" aria-live="polite">
        {thread.isUnread ? 'Unread' : 'Read'} · {thread.emails.edges.length} e-mail{thread.emails.edges.length === 1 ? '' : 's'}
      </Text>

      {composer && (
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            {composer.mode === 'reply' ? `Reply to ${composer.email.fromAddressEmail}` : 'Forward'}
          </Title>
          <Composer
            key={`${composer.mode}-${composer.email.id}`}
            mode={composer.mode}
            workspaceId={workspaceId}
            email={composer.email}
            onCancel={() => setComposer(null)}
            onSent={() => {
              setComposer(null);
              notifications.show({ color: 'green', message: composer.mode === 'reply' ? 'Your reply is sent.' : 'The e-mail is forwarded.' });
              changed();
            }}
          />
        </Paper>
      )}

      <Stack gap="sm" component="section" aria-label="E-mails of the conversation">
        {thread.emails.pageInfo.hasNextPage && <Text size="sm">Only the latest 100 e-mails of this conversation are shown.</Text>}
        {emails.map((e) => (
          <EmailCard key={e.id} email={e} />
        ))}
      </Stack>
    </Stack>
  );
}
