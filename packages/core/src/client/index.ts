// The operations of this domain, keyed as their tRPC procedures are (`client.<key>`).
import { createClient, deleteClient, listClients, setClientStatus, updateClientPermissions } from './client.operations';

export const clientOperations = {
  list: listClients,
  create: createClient,
  updatePermissions: updateClientPermissions,
  setStatus: setClientStatus,
  delete: deleteClient,
} as const;
