// Writing an e-mail from the unibox: a reply or a forward of an e-mail of the conversation, or a
// new e-mail from a chosen mailbox. Replies and new e-mails take attachments (the send operations
// accept them); a forward does not (the operation names the original's attachments in the text).
import { useState, type FormEvent } from 'react';
import { Button, FileInput, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation } from 'urql';
import { fieldProblem, problemOf, type Problem } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Forward, Reply, Send, type ThreadEmail } from './unibox.graphql';
import { attachmentProblem, formatBytes, splitAddresses, textToHtml, toAttachment } from './mail-text';

export type ComposerMode = 'reply' | 'forward' | 'new';

const FIELDS = ['from', 'to', 'cc', 'subject', 'body', 'attachments'];
const SUBMIT = { reply: 'Send the reply', forward: 'Send the forward', new: 'Send the e-mail' } as const;

export function Composer(props: {
  mode: ComposerMode;
  workspaceId: string;
  /** The e-mail answered or forwarded. */
  email?: ThreadEmail;
  mailboxes?: { email: string; status: string }[];
  onSent: (threadId: string) => void;
  onCancel: () => void;
}) {
  const { mode, email } = props;
  const mailboxes = props.mailboxes ?? [];
  const replyTo = email && email.direction === 'IN' ? email.fromAddressEmail : (email?.toAddressEmailList ?? '');
  const [from, setFrom] = useState<string | null>(mailboxes.find((m) => m.status === 'ACTIVE')?.email ?? mailboxes[0]?.email ?? null);
  const [to, setTo] = useState(mode === 'reply' ? replyTo : '');
  const [cc, setCc] = useState('');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [local, setLocal] = useState<Problem | undefined>();
  const [replied, reply] = useMutation(Reply);
  const [forwarded, forward] = useMutation(Forward);
  const [sent, send] = useMutation(Send);
  const busy = replied.fetching || forwarded.fetching || sent.fetching;
  const problem = local ?? problemOf(mode === 'reply' ? replied.error : mode === 'forward' ? forwarded.error : sent.error);
  const filesProblem = attachmentProblem(files);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setLocal(undefined);
    const missing = [
      ...(mode === 'new' && !from ? [{ field: 'from', message: 'Choose the mailbox to send from' }] : []),
      ...(mode !== 'reply' && !splitAddresses(to).length ? [{ field: 'to', message: 'Write at least one address' }] : []),
      ...(mode === 'new' && !subject.trim() ? [{ field: 'subject', message: 'Write a subject' }] : []),
      ...(mode !== 'forward' && !body.trim() ? [{ field: 'body', message: 'Write the message' }] : []),
    ];
    if (missing.length) return setLocal({ message: 'Some fields need your attention.', fields: missing });
    if (filesProblem) return;
    const attachments = files.length ? await Promise.all(files.map(toAttachment)) : undefined;
    const common = { workspaceId: props.workspaceId, body: textToHtml(body), cc: cc.trim() ? splitAddresses(cc) : undefined };
    const threadId =
      mode === 'reply'
        ? (await reply({ ...common, replyToId: email!.id, to: to.trim() ? splitAddresses(to) : undefined, attachments })).data?.replyToUniboxEmail.threadId
        : mode === 'forward'
          ? (await forward({ ...common, replyToId: email!.id, to: splitAddresses(to), subject: subject.trim() || undefined })).data?.forwardUniboxEmail.threadId
          : (await send({ ...common, from: from!, to: splitAddresses(to), subject, attachments })).data?.sendUniboxEmail.threadId;
    if (threadId) props.onSent(threadId);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={mode === 'reply' ? 'Reply' : mode === 'forward' ? 'Forward' : 'New e-mail'}>
      <Stack gap="sm">
        <ProblemAlert problem={problem} fields={FIELDS} prefixes={['to.', 'cc.', 'attachments.']} title="The e-mail was not sent" />
        {mode === 'new' && (
          <Select
            label="From"
            required
            data={mailboxes.map((m) => ({ value: m.email, label: m.status === 'ACTIVE' ? m.email : `${m.email} (${m.status.toLowerCase()})` }))}
            value={from}
            onChange={setFrom}
            allowDeselect={false}
            placeholder={mailboxes.length ? 'Choose a mailbox' : 'No mailbox in this workspace'}
            error={fieldProblem(problem, 'from')}
          />
        )}
        <TextInput
          label="To"
          required={mode !== 'reply'}
          description={mode === 'reply' ? 'Leave empty to answer the sender' : 'Addresses separated by commas'}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={fieldProblem(problem, 'to') ?? problem?.fields.find((f) => f.field.startsWith('to.'))?.message}
        />
        <TextInput label="Cc" value={cc} onChange={(e) => setCc(e.currentTarget.value)} error={fieldProblem(problem, 'cc') ?? problem?.fields.find((f) => f.field.startsWith('cc.'))?.message} />
        {mode !== 'reply' && (
          <TextInput
            label="Subject"
            required={mode === 'new'}
            placeholder={mode === 'forward' ? `Fwd: ${email?.subject ?? ''}` : undefined}
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
            error={fieldProblem(problem, 'subject')}
          />
        )}
        <Textarea
          label={mode === 'forward' ? 'Note above the forwarded e-mail' : 'Message'}
          required={mode !== 'forward'}
          autosize
          minRows={5}
          maxRows={16}
          value={body}
          onChange={(e) => setBody(e.currentTarget.value)}
          error={fieldProblem(problem, 'body')}
        />
        {mode === 'forward' ? (
          <Text size="sm" c="dimmed">
            The forwarded e-mail is quoted below your note; its attachments are named there, not attached (the unibox keeps no attachment contents).
          </Text>
        ) : (
          <FileInput
            label="Attachments"
            description="At most 10 MB in all"
            multiple
            clearable
            value={files}
            onChange={setFiles}
            valueComponent={({ value }) => <Text size="sm">{(Array.isArray(value) ? value : value ? [value] : []).map((f) => `${f.name} (${formatBytes(f.size)})`).join(', ')}</Text>}
            error={filesProblem ?? fieldProblem(problem, 'attachments') ?? problem?.fields.find((f) => f.field.startsWith('attachments.'))?.message}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {SUBMIT[mode]}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
