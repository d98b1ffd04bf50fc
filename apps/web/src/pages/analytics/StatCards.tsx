import { Paper, SimpleGrid, Text } from '@mantine/core';

/** A row of headline figures: label above, value below. */
export function StatCards(props: { label: string; stats: { label: string; value: string }[] }) {
  return (
    <SimpleGrid cols={{ base: 2, xs: 3, md: 6 }} spacing="sm" role="list" aria-label={props.label}>
      {props.stats.map((s) => (
        <Paper key={s.label} withBorder p="sm" role="listitem">
          <Text size="xs" c="dimmed">
            {s.label}
          </Text>
          <Text fw={700} size="xl">
            {s.value}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

export const number = new Intl.NumberFormat();
export const percent = (value: number) => `${value.toFixed(value % 1 ? 1 : 0)} %`;
