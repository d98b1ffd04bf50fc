import { Center, Loader, Text } from '@mantine/core';

export function Loading(props: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" mr="sm" aria-hidden />
      <Text c="dimmed">{props.label ?? 'Loading…'}</Text>
    </Center>
  );
}
