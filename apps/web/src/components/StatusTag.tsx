import classes from './DataTable.module.css';

/** A status in a long table: a light badge's look, without the component (DataTable.module.css). */
export function StatusTag(props: { color: string; children: string }) {
  return (
    <span className={classes.status} style={{ background: `var(--mantine-color-${props.color}-light)` }}>
      {props.children}
    </span>
  );
}
