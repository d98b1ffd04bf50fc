import { newId, type Tx } from '@outreach/db';
import { SYSTEM_LEAD_LABELS } from './workspace.rules';



/** A workspace row with its system lead labels; call inside the caller's transaction. */
export async function createWorkspaceRecords(options: { tx: Tx; organizationId: string; name: string }) {
  const id = newId();
  const workspace = await options.tx.workspace.create({
    data: { id, organizationId: options.organizationId, name: options.name },
    select: { id: true, name: true },
  });
  await options.tx.leadLabel.createMany({
    data: SYSTEM_LEAD_LABELS.map((label) => ({
      id: newId(),
      workspaceId: id,
      key: label.key,
      name: label.name,
      sentiment: label.sentiment,
      icon: label.icon,
      isSystem: true,
    })),
  });
  return workspace;
}
