// The operations of this domain, keyed as their tRPC procedures are (`additionalField.<key>`).
import {
  createAdditionalField,
  deleteAdditionalFields,
  listAdditionalFields,
  updateAdditionalField,
} from './additional-field.operations';

export const additionalFieldOperations = {
  list: listAdditionalFields,
  create: createAdditionalField,
  update: updateAdditionalField,
  delete: deleteAdditionalFields,
} as const;
