// Figures by day, as a chart or as a table (the accessible alternative, one toggle away). The
// chart carries its totals in its accessible name, so a screen reader hears them without the table.
import { lazy, Suspense, useState } from 'react';
import { Box, Group, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { Loading } from '../../components/Loading';
import { TableScroll } from '../../components/TableScroll';

const DailyChart = lazy(() => import('./DailyChart'));

export interface Series {
  key: string;
  /** Lower-case plural, as a total reads: "sent", "opens", "positive replies". */
  label: string;
  color: string;
}
export type DailyRow = { date: string; label: string } & Record<string, number | string>;

const number = new Intl.NumberFormat();

/** "12 sent, 3 opens, …": the totals of the range, in words. */
export function totalsInWords(rows: DailyRow[], series: Series[]): string {
  return series.map((s) => `${number.format(rows.reduce((sum, r) => sum + Number(r[s.key] ?? 0), 0))} ${s.label}`).join(', ');
}

export function DailyFigures(props: { title: string; rows: DailyRow[]; series: Series[]; headingOrder?: 2 | 3 }) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const { rows, series, title } = props;
  const first = rows[0]?.date;
  const last = rows[rows.length - 1]?.date;
  const summary = `${title}, ${first ?? ''} to ${last ?? ''}: ${totalsInWords(rows, series)}`;
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={props.headingOrder ?? 2} size="h3">
          {title}
        </Title>
        <SegmentedControl
          size="xs"
          aria-label={`Show ${title.toLowerCase()} as`}
          value={view}
          onChange={(v) => setView(v as 'chart' | 'table')}
          data={[
            { value: 'chart', label: 'Chart' },
            { value: 'table', label: 'Table' },
          ]}
        />
      </Group>
      <Text size="sm" c="dimmed">
        Totals: {totalsInWords(rows, series)}
      </Text>
      {view === 'chart' ? (
        <Box role="img" aria-label={summary} h={280}>
          <Suspense fallback={<Loading label="Loading the chart…" />}>
            <DailyChart rows={rows} series={series} />
          </Suspense>
        </Box>
      ) : (
        <TableScroll minWidth={480} maxHeight={360} label={`${title}, table`}>
          <Table striped stickyHeader aria-label={`${title}, table`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                {series.map((s) => (
                  <Table.Th key={s.key} ta="right">
                    {s.label[0]!.toUpperCase() + s.label.slice(1)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.date}>
                  <Table.Td>{r.date}</Table.Td>
                  {series.map((s) => (
                    <Table.Td key={s.key} ta="right">
                      {number.format(Number(r[s.key] ?? 0))}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
    </Stack>
  );
}
