import type { ReactNode } from 'react';
import { Table } from '@mantine/core';

/**
 * A table that scrolls sideways on narrow screens (and down past `maxHeight`), its scrolling
 * area reachable by keyboard (axe: scrollable-region-focusable) and named after the table.
 */
export function TableScroll(props: { minWidth: number; maxHeight?: number; label: string; children: ReactNode }) {
  return (
    <Table.ScrollContainer
      minWidth={props.minWidth}
      maxHeight={props.maxHeight}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `${props.label} (scrollable)` } }}
    >
      {props.children}
    </Table.ScrollContainer>
  );
}
