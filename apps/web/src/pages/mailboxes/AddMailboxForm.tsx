// Add one mailbox: its SMTP and IMAP settings, checked against the real servers by the add
// operation before anything is saved. A refused login or an unreachable server is said next to
// the field it concerns (the IMAP password, the SMTP host, …); the form keeps what was typed.
import { useState, type FormEvent } from 'react';
import { Button, Fieldset, Group, NumberInput, PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useMutation } from 'urql';
import { fieldProblem, problemOf, type Problem } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { AddMailboxes } from './mailboxes.graphql';
import { loginFailureField, loginFailureText, portOfSecurity, securityOfPort, type LoginField, type Security } from './mailbox.rules';

const SECURITY = [
  { value: 'ssl', label: 'SSL/TLS' },
  { value: 'starttls', label: 'STARTTLS' },
];
const FIELDS = ['email', 'first_name', 'last_name', 'smtp_host', 'smtp_port', 'smtp_username', 'smtp_password', 'imap_host', 'imap_port', 'imap_username', 'imap_password', 'daily_limit', 'sending_gap'];

const asNumber = (value: string | number) => (typeof value === 'number' ? value : value === '' ? Number.NaN : Number(value));

/** The request's problem with `accounts.0.` taken off its field names: the form has one account. */
function ownProblem(problem: Problem | undefined): Problem | undefined {
  if (!problem) return undefined;
  return { ...problem, fields: problem.fields.map((f) => ({ ...f, field: f.field.replace(/^accounts\.0\./, '') })) };
}

// Mantine's PasswordInput marks an error with data-invalid only: aria-invalid is given to it here.
export function AddMailboxForm(props: { workspaceId: string; onAdded: (email: string) => void; onCancel: () => void }) {
  const [form, setForm] = useState({
    email: '',
    firstName: '',
    lastName: '',
    smtpHost: '',
    smtpPort: 587 as number | string,
    smtpUsername: '',
    smtpPassword: '',
    imapHost: '',
    imapPort: 993 as number | string,
    imapUsername: '',
    imapPassword: '',
    dailyLimit: 30 as number | string,
    sendingGap: 10 as number | string,
    enableWarmup: false,
  });
  const [added, add] = useMutation(AddMailboxes);
  const [refused, setRefused] = useState<{ field: LoginField | null; text: string } | null>(null);
  const problem = ownProblem(problemOf(added.error));
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));

  /** The error beside a field: the server's validation, else the failed login check it concerns. */
  const errorOf = (field: LoginField | null, ...names: string[]) => fieldProblem(problem, ...names) ?? (refused && field && refused.field === field ? refused.text : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRefused(null);
    const email = form.email.trim();
    const answer = await add({
      workspaceId: props.workspaceId,
      enableWarmup: form.enableWarmup,
      accounts: [
        {
          email,
          firstName: form.firstName,
          lastName: form.lastName,
          smtpHost: form.smtpHost,
          smtpPort: asNumber(form.smtpPort),
          smtpUsername: form.smtpUsername.trim() || email,
          smtpPassword: form.smtpPassword,
          imapHost: form.imapHost,
          imapPort: asNumber(form.imapPort),
          imapUsername: form.imapUsername.trim() || email,
          imapPassword: form.imapPassword,
          dailyLimit: asNumber(form.dailyLimit),
          sendingGap: asNumber(form.sendingGap),
        },
      ],
    });
    const result = answer.data?.addEmailAccounts;
    if (!result) return;
    const failure = result.failed[0];
    if (failure) setRefused({ field: loginFailureField(failure.error), text: loginFailureText(failure.error) });
    else if (result.added[0]) props.onAdded(result.added[0].email);
  };

  const securitySelect = (protocol: 'smtp' | 'imap') => {
    const key = protocol === 'smtp' ? 'smtpPort' : 'imapPort';
    return (
      <Select
        label={`${protocol.toUpperCase()} security`}
        description="Sets the usual port"
        data={SECURITY}
        value={securityOfPort(protocol, form[key])}
        onChange={(value) => value && set(key, portOfSecurity(protocol, value as Security))}
        allowDeselect={false}
      />
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add a mailbox">
      <Stack gap="md">
        <ProblemAlert problem={problem} fields={FIELDS} title="The mailbox was not added" />
        {refused && !refused.field && (
          <ProblemAlert problem={{ message: refused.text, fields: [] }} title="The mailbox was not added" />
        )}
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <TextInput label="E-mail address" required type="email" autoComplete="off" value={form.email} onChange={(e) => set('email', e.currentTarget.value)} error={errorOf('email', 'email')} />
          <TextInput label="From name (first)" value={form.firstName} onChange={(e) => set('firstName', e.currentTarget.value)} error={errorOf(null, 'first_name')} />
          <TextInput label="From name (last)" value={form.lastName} onChange={(e) => set('lastName', e.currentTarget.value)} error={errorOf(null, 'last_name')} />
        </SimpleGrid>

        <Fieldset legend="SMTP (sending)">
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <TextInput label="SMTP host" required placeholder="smtp.example.com" value={form.smtpHost} onChange={(e) => set('smtpHost', e.currentTarget.value)} error={errorOf('smtpHost', 'smtp_host')} />
            <NumberInput label="SMTP port" required min={1} max={65535} value={form.smtpPort} onChange={(v) => set('smtpPort', v)} error={errorOf(null, 'smtp_port')} />
            {securitySelect('smtp')}
            <TextInput label="SMTP username" placeholder="The e-mail address" autoComplete="off" value={form.smtpUsername} onChange={(e) => set('smtpUsername', e.currentTarget.value)} error={errorOf(null, 'smtp_username')} />
            <PasswordInput label="SMTP password" required autoComplete="new-password" value={form.smtpPassword} onChange={(e) => set('smtpPassword', e.currentTarget.value)} error={errorOf('smtpPassword', 'smtp_password')} aria-invalid={!!errorOf('smtpPassword', 'smtp_password')} />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend="IMAP (replies)">
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <TextInput label="IMAP host" required placeholder="imap.example.com" value={form.imapHost} onChange={(e) => set('imapHost', e.currentTarget.value)} error={errorOf('imapHost', 'imap_host')} />
            <NumberInput label="IMAP port" required min={1} max={65535} value={form.imapPort} onChange={(v) => set('imapPort', v)} error={errorOf(null, 'imap_port')} />
            {securitySelect('imap')}
            <TextInput label="IMAP username" placeholder="The e-mail address" autoComplete="off" value={form.imapUsername} onChange={(e) => set('imapUsername', e.currentTarget.value)} error={errorOf(null, 'imap_username')} />
            <PasswordInput label="IMAP password" required autoComplete="new-password" value={form.imapPassword} onChange={(e) => set('imapPassword', e.currentTarget.value)} error={errorOf('imapPassword', 'imap_password')} aria-invalid={!!errorOf('imapPassword', 'imap_password')} />
          </SimpleGrid>
        </Fieldset>

        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput label="Daily limit (e-mails a day)" min={0} max={10000} value={form.dailyLimit} onChange={(v) => set('dailyLimit', v)} error={errorOf(null, 'daily_limit')} />
          <NumberInput label="Minutes between sends" min={0} max={1440} value={form.sendingGap} onChange={(v) => set('sendingGap', v)} error={errorOf(null, 'sending_gap')} />
        </SimpleGrid>
        <Switch label="Start warmup" checked={form.enableWarmup} onChange={(e) => set('enableWarmup', e.currentTarget.checked)} />

        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={added.fetching}>
            Check and add
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
