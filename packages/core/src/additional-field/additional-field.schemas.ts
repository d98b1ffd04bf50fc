import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';
import { fieldNameProblem, normalizeFieldName } from './additional-field.rules';

/** A field name as given, normalized; its shape checked (for names that will be created). */
const NewFieldName = z
  .string({ error: requiredOr('a string') })
  .transform(normalizeFieldName)
  .superRefine((name, ctx) => {
    const problem = fieldNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A field name that names an existing field: normalized the same way, shape not re-checked. */
const ExistingFieldName = z.string({ error: requiredOr('a string') }).transform(normalizeFieldName).pipe(z.string().min(1, 'must not be empty'));

const DefaultValue = z.string({ error: 'must be a string' }).max(1000, 'must be at most 1000 characters');

export const ListAdditionalFieldsInput = z.object({ workspace_id: WorkspaceIdField });
export type ListAdditionalFieldsInput = z.infer<typeof ListAdditionalFieldsInput>;

export const AdditionalFieldItem = z.object({
  name: z.string().describe('Field name as stored (spaces turned into underscores)'),
  default_value: z.string().describe('Value used for leads that have none'),
});
export type AdditionalFieldItem = z.infer<typeof AdditionalFieldItem>;

export const ListAdditionalFieldsOutput = z.array(AdditionalFieldItem);
export type ListAdditionalFieldsOutput = z.infer<typeof ListAdditionalFieldsOutput>;

export const CreateAdditionalFieldInput = z.object({
  workspace_id: WorkspaceIdField,
  name: NewFieldName,
  default_value: DefaultValue.optional(),
});
export type CreateAdditionalFieldInput = z.infer<typeof CreateAdditionalFieldInput>;

export const CreateAdditionalFieldOutput = z.object({ status: StatusSuccess, name: z.string().describe('The name as stored') });
export type CreateAdditionalFieldOutput = z.infer<typeof CreateAdditionalFieldOutput>;

export const UpdateAdditionalFieldInput = z.object({
  workspace_id: WorkspaceIdField,
  name: ExistingFieldName,
  default_value: z.string({ error: requiredOr('a string') }).max(1000, 'must be at most 1000 characters'),
});
export type UpdateAdditionalFieldInput = z.infer<typeof UpdateAdditionalFieldInput>;

export const UpdateAdditionalFieldOutput = z.object({ status: StatusSuccess });
export type UpdateAdditionalFieldOutput = z.infer<typeof UpdateAdditionalFieldOutput>;

export const DeleteAdditionalFieldsInput = z.object({
  workspace_id: WorkspaceIdField,
  names: z.array(ExistingFieldName, { error: requiredOr('an array of field names') }).min(1, 'must hold at least one name').max(100, 'must hold at most 100 names'),
});
export type DeleteAdditionalFieldsInput = z.infer<typeof DeleteAdditionalFieldsInput>;

export const DeleteAdditionalFieldsOutput = z.object({ status: StatusSuccess, deleted_count: z.number().int() });
export type DeleteAdditionalFieldsOutput = z.infer<typeof DeleteAdditionalFieldsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(AdditionalFieldItem, 'AdditionalField');
