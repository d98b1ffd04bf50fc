// What the settings tabs share: the viewer's rights, a write's outcome in words, and the
// confirmation a removal asks for.
import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { CombinedError } from 'urql';
import { problemOf } from '../../graphql/errors';
import { useSession } from '../../session';

/** `canWrite`: anyone but READ_ONLY (a member's work); `isAdmin`: owners and admins (the organization's set-up). */
export function useRights(): { canWrite: boolean; isAdmin: boolean } {
  const role = useSession().viewer?.person.role;
  return { canWrite: role !== undefined && role !== 'READ_ONLY', isAdmin: role === 'OWNER' || role === 'ADMIN' };
}

/** Says how a write went; true when it worked. */
export function told(what: string, answer: { error?: CombinedError }, done?: string): boolean {
  const problem = problemOf(answer.error);
  if (problem) notifications.show({ color: 'red', title: `Could not ${what}`, message: problem.message });
  else notifications.show({ color: 'green', message: done ?? `Done: ${what}` });
  return !problem;
}

/** A red button that asks before it runs `onConfirm`. */
export function ConfirmButton(props: { label: string; title: string; children: ReactNode; confirm: string; onConfirm: () => Promise<boolean> }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button size="xs" variant="subtle" color="red" c="red.9" aria-label={props.label} onClick={() => setOpen(true)}>
        {props.confirm}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={props.title} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text>{props.children}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={async () => {
                setBusy(true);
                const ok = await props.onConfirm();
                setBusy(false);
                if (ok) setOpen(false);
              }}
            >
              {props.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** A failed read in words, with a way to try again (never an empty list). */
export function ReadFailed(props: { what: string; error: CombinedError; retry: () => void }) {
  const problem = problemOf(props.error);
  return (
    <Stack gap="xs" role="alert">
      <Text c="red.8" fw={600}>
        {props.what} could not be read
      </Text>
      <Text size="sm">{problem?.message}</Text>
      <Button variant="default" size="xs" w="fit-content" onClick={props.retry}>
        Try again
      </Button>
    </Stack>
  );
}
