import type { ReactNode } from 'react';
import { Container, Paper, Stack, Text, Title } from '@mantine/core';

/** The frame of the pages before sign-in: a title, a line of explanation, one form. */
export function AuthLayout(props: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <Container size={440} py={48} component="main">
      <Stack gap="lg">
        <Text fw={700} size="xl" ta="center" aria-hidden>
          Outreach
        </Text>
        <Paper withBorder shadow="sm" p="lg">
          <Stack gap="md">
            <Title order={1} size="h2">
              {props.title}
            </Title>
            {props.intro && <Text c="dimmed">{props.intro}</Text>}
            {props.children}
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}

/** The token of a link like /setup#token=…: in the fragment, so it never reaches a server log. */
export function tokenFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}
