import { defineOperation } from '../shared/operation';
import { RECIPIENT_PROVIDERS } from './recipient-providers.data';
import {
  AccountClass,
  ListRecipientProvidersInput,
  ListRecipientProvidersOutput,
  type RecipientProviderGroup,
} from './recipient-providers.schemas';

export const listRecipientProviders = defineOperation({
  name: 'placement.recipientProviders',
  kind: 'query',
  summary: 'Get recipient providers',
  description:
    'Lists the recipient email providers a placement test can send to, grouped by account class: always the PERSONAL group, then the PROFESSIONAL group (a class without providers would be listed with no items), providers in catalog order, `count` the number of items. The catalog is the same for every workspace, so `workspace_id` is optional; when given it is validated and must be reachable by the API key (403 otherwise). The body mirrors the vendor: `{ code: 200, message: "success", data }`.',
  input: ListRecipientProvidersInput,
  output: ListRecipientProvidersOutput,
  workspace: 'optional',
  async run() {
    const data: RecipientProviderGroup[] = AccountClass.options.map((accountClass) => {
      // Copies, so a caller that edits its answer cannot edit the catalog.
      const items = RECIPIENT_PROVIDERS.filter((p) => p.account_class === accountClass).map((p) => ({ ...p }));
      return { _id: accountClass, items, count: items.length };
    });
    return { code: 200 as const, message: 'success' as const, data };
  },
});
