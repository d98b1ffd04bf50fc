/**
 * The merge fields of one e-mail: the workspace's additional fields (with their defaults),
 * then the lead's custom variables (each also as `custom_<name>`), then its columns and
 * aliases, then the sender's. A
 * later source wins. What personalize() (personalize.rules.ts) fills `{{…}}` from. Pure.
 */
import type { LeadRow, MailboxRow } from './scheduler.queries';

export function leadVariables(options: { lead: LeadRow; mailbox: MailboxRow; additional: ReadonlyMap<string, string> }): Record<string, string | null | undefined> {
  const { lead, mailbox } = options;
  const vars: Record<string, string | null | undefined> = {};
  for (const [name, value] of options.additional) vars[name] = value;
  const custom = Object.entries(lead.custom_variables ?? {}).filter(([, value]) => value !== null && value !== undefined);
  // A plain key even when it is named __proto__.
  const set = (name: string, value: unknown) => Object.defineProperty(vars, name, { value: String(value), enumerable: true, writable: true, configurable: true });
  for (const [name, value] of custom) set(name, value);
  // Also as `custom_<name>`, as lead reads answer them (a write's `custom_x` is stored as `x`),
  // unless a stored variable has that name.
  for (const [name, value] of custom) if (!Object.hasOwn(lead.custom_variables ?? {}, `custom_${name}`)) set(`custom_${name}`, value);
  Object.assign(vars, {
    email: lead.email,
    first_name: lead.first_name,
    last_name: lead.last_name,
    company_name: lead.company_name,
    company_website: lead.company_website,
    website: lead.company_website,
    job_title: lead.job_title,
    phone_number: lead.phone_number,
    phone: lead.phone_number,
    address_line: lead.address_line,
    city: lead.city,
    state: lead.state,
    country: lead.country,
    country_code: lead.country_code,
    network_person_url: lead.network_person_url,
    network_company_url: lead.network_company_url,
    sender_email: mailbox.email,
    sender_first_name: mailbox.first_name,
    sender_last_name: mailbox.last_name,
    sender_name: `${mailbox.first_name} ${mailbox.last_name}`.trim(),
    signature: mailbox.signature,
  });
  return vars;
}
