// The leads in a virtualised table: as tall as every lead that matches, only the rows in view
// (and a few around them) in the page, and each page of rows read when it comes into view
// (use-lead-pages.ts). A real <table> with a spacer row above and below the rows shown, so it
// stays a table to assistive technology (aria-rowcount/rowindex). Rows are plain elements with
// the classes of DataTable.module.css: they are rendered while the person scrolls.
import { memo, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Alert, Button } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Problem } from '../../graphql/errors';
import type { LeadRow } from './leads.graphql';
import { LEAD_STATUS_COLORS, LEAD_STATUS_LABELS, labelName } from './lead-status';
import { StatusTag } from '../../components/StatusTag';
import table from '../../components/DataTable.module.css';
import classes from './LeadsTable.module.css';

const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function LeadsTable(props: {
  total: number;
  rowAt: (index: number) => LeadRow | undefined;
  problem?: Problem;
  labels: readonly { key: string; name: string }[] | undefined;
  show: (first: number, last: number) => void;
  retry: () => void;
}) {
  const { total, show } = props;
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const rowHeight = wide ? 45 : 61;
  const scroller = useRef<HTMLDivElement>(null);
  // Rows follow the scroll in React's next render, not synchronously inside each scroll event
  // (useFlushSync): fast wheel scrolling on PostgreSQL, whose pages arrive sooner, otherwise made
  // a few tasks over 50 ms (bench/web.ts).
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 10, useFlushSync: false });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstShown = items[0]?.index ?? 0;
  const lastShown = items.at(-1)?.index ?? 0;
  useEffect(() => show(firstShown, lastShown), [firstShown, lastShown, show]);

  const columns = wide ? 7 : 2;
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <>
      {props.problem && (
        <Alert color="red" role="alert" title="Some leads could not be read">
          {props.problem.message}{' '}
          <Button size="compact-sm" variant="light" onClick={props.retry}>
            Try again
          </Button>
        </Alert>
      )}
      <div ref={scroller} role="region" aria-label="Leads table (scrolls)" tabIndex={0} className={wide ? classes.scroller : `${classes.scroller} ${classes.narrow}`}>
        <table aria-label="Leads" aria-rowcount={total + 1} className={`${table.table} ${classes.fixed}${wide ? ` ${classes.wide}` : ''}`}>
          <thead>
            <tr aria-rowindex={1}>
              {wide ? (
                <>
                  <th style={{ width: '26%' }}>E-mail</th>
                  <th>Name</th>
                  <th>Company</th>
                  <th>Campaign</th>
                  <th style={{ width: 150 }}>Status</th>
                  <th style={{ width: 130 }}>Label</th>
                  <th style={{ width: 120 }}>Added</th>
                </>
              ) : (
                <>
                  <th>Lead</th>
                  <th style={{ width: 146 }}>Status</th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {top > 0 && (
              <tr aria-hidden style={{ height: top }}>
                <td colSpan={columns} />
              </tr>
            )}
            {items.map((item) => {
              const lead = props.rowAt(item.index);
              return lead ? (
                <LeadRowView key={lead.id} lead={lead} index={item.index} wide={wide} height={rowHeight} label={labelName(props.labels, lead.label)} />
              ) : (
                <PendingRow key={`pending-${item.index}`} index={item.index} columns={columns} height={rowHeight} />
              );
            })}
            {bottom > 0 && (
              <tr aria-hidden style={{ height: bottom }}>
                <td colSpan={columns} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A row whose page is on its way. */
const PendingRow = memo(function PendingRow(props: { index: number; columns: number; height: number }) {
  return (
    <tr aria-rowindex={props.index + 2} aria-busy="true" style={{ height: props.height }}>
      <td colSpan={props.columns}>
        <span className={classes.pending} aria-label="Loading" role="img" />
      </td>
    </tr>
  );
});

/** One row; memoised, so scrolling renders only the rows that come into view. */
const LeadRowView = memo(function LeadRowView(props: { lead: LeadRow; index: number; wide: boolean; height: number; label: string }) {
  const { lead, wide } = props;
  const name = [lead.firstName, lead.lastName].filter(Boolean).join(' ');
  const link = (
    <Link to={`/leads/${lead.id}`} className={table.link}>
      {lead.email}
    </Link>
  );
  const status = <StatusTag color={LEAD_STATUS_COLORS[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</StatusTag>;
  return (
    <tr aria-rowindex={props.index + 2} className={table.row} style={{ height: props.height }}>
      {wide ? (
        <>
          <td>{link}</td>
          <td>{name}</td>
          <td>{lead.companyName}</td>
          <td>{lead.campaignName}</td>
          <td>{status}</td>
          <td>{props.label}</td>
          <td>{date.format(new Date(lead.createdAt))}</td>
        </>
      ) : (
        <>
          <td>
            {link}
            <div className={classes.sub}>{[name, lead.campaignName].filter(Boolean).join(' · ')}</div>
          </td>
          <td>{status}</td>
        </>
      )}
    </tr>
  );
});
