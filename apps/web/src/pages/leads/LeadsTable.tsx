// The leads in a virtualised table: only the rows in view (and a few around them) are in the
// page, whatever the length of the list; the next page of the connection is read when the
// person scrolls near the end of what was read. A real <table> with a spacer row above and
// below the rows shown, so it stays a table to assistive technology (aria-rowcount/rowindex).
import { memo, useEffect, useRef, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Center, Loader, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Problem } from '../../graphql/errors';
import type { LeadRow } from './leads.graphql';
import { LeadStatusBadge, labelName } from './lead-status';

const cell: CSSProperties = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' };
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
/** Read the next page when fewer rows than this are left below the view. */
const AHEAD = 30;

export function LeadsTable(props: {
  rows: LeadRow[];
  total: number | null;
  hasNextPage: boolean;
  loading: boolean;
  problem?: Problem;
  labels: readonly { key: string; name: string }[] | undefined;
  loadMore: () => void;
  retry: () => void;
}) {
  const { rows, hasNextPage, loadMore } = props;
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const rowHeight = wide ? 45 : 61;
  const scroller = useRef<HTMLDivElement>(null);
  // One more row after the last read while more follow: it says "loading" (or what failed).
  const count = rows.length + (hasNextPage || props.problem ? 1 : 0);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12 });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && lastShown >= rows.length - AHEAD) loadMore();
  }, [lastShown, rows.length, hasNextPage, loadMore]);

  const columns = wide ? 7 : 2;
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <div
      ref={scroller}
      role="region"
      aria-label="Leads table (scrolls)"
      tabIndex={0}
      style={{ height: wide ? 'max(360px, calc(100dvh - 300px))' : 'max(360px, calc(100dvh - 420px))', overflow: 'auto', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Table stickyHeader highlightOnHover aria-label="Leads" aria-rowcount={props.total != null ? props.total + 1 : -1} style={{ tableLayout: 'fixed', minWidth: wide ? 960 : undefined }}>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            {wide ? (
              <>
                <Table.Th w="26%">E-mail</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Company</Table.Th>
                <Table.Th>Campaign</Table.Th>
                <Table.Th w={150}>Status</Table.Th>
                <Table.Th w={130}>Label</Table.Th>
                <Table.Th w={120}>Added</Table.Th>
              </>
            ) : (
              <>
                <Table.Th>Lead</Table.Th>
                <Table.Th w={146}>Status</Table.Th>
              </>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {top > 0 && (
            <tr aria-hidden style={{ height: top }}>
              <td colSpan={columns} />
            </tr>
          )}
          {items.map((item) => {
            const lead = rows[item.index];
            if (!lead) {
              return (
                <tr key="end" style={{ height: rowHeight }}>
                  <td colSpan={columns}>
                    {props.problem ? (
                      <Alert color="red" role="alert" py={4}>
                        {props.problem.message}{' '}
                        <Button size="compact-xs" variant="light" onClick={props.retry}>
                          Try again
                        </Button>
                      </Alert>
                    ) : (
                      <Center role="status">
                        <Loader size="xs" mr="xs" aria-hidden />
                        <Text size="sm" c="dimmed">
                          Loading more leads…
                        </Text>
                      </Center>
                    )}
                  </td>
                </tr>
              );
            }
            return <LeadRowView key={lead.id} lead={lead} index={item.index} wide={wide} height={rowHeight} label={labelName(props.labels, lead.label)} />;
          })}
          {bottom > 0 && (
            <tr aria-hidden style={{ height: bottom }}>
              <td colSpan={columns} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/** One row; memoised, so scrolling renders only the rows that come into view. */
const LeadRowView = memo(function LeadRowView(props: { lead: LeadRow; index: number; wide: boolean; height: number; label: string }) {
  const { lead, wide } = props;
  const name = [lead.firstName, lead.lastName].filter(Boolean).join(' ');
  const link = (
    <Anchor component={Link} to={`/leads/${lead.id}`} fw={600} size="sm">
      {lead.email}
    </Anchor>
  );
  return (
    <Table.Tr aria-rowindex={props.index + 2} style={{ height: props.height }}>
      {wide ? (
        <>
          <Table.Td style={cell}>{link}</Table.Td>
          <Table.Td style={cell}>{name}</Table.Td>
          <Table.Td style={cell}>{lead.companyName}</Table.Td>
          <Table.Td style={cell}>{lead.campaignName}</Table.Td>
          <Table.Td style={cell}>
            <LeadStatusBadge status={lead.status} />
          </Table.Td>
          <Table.Td style={cell}>{props.label}</Table.Td>
          <Table.Td style={cell}>{date.format(new Date(lead.createdAt))}</Table.Td>
        </>
      ) : (
        <>
          <Table.Td style={cell}>
            {link}
            <Text size="xs" c="dimmed" style={cell}>
              {[name, lead.campaignName].filter(Boolean).join(' · ')}
            </Text>
          </Table.Td>
          <Table.Td style={cell}>
            <LeadStatusBadge status={lead.status} />
          </Table.Td>
        </>
      )}
    </Table.Tr>
  );
});
