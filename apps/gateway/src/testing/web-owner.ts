// The browser tests' first step: the owner of a new organization signs up through the one-time
// setup link, as a person would, and lands on the campaigns screen.
import type { Page } from 'playwright-core';
import { createSetupLink } from '@outreach/core';
import { newId } from '@outreach/db';
import type { TestServer } from './test-server';

export interface WebOwner {
  email: string;
  organizationId: string;
  /** The organization's first workspace (the one the app shows). */
  workspaceId: string;
}

export async function signUpOwner(page: Page, server: Pick<TestServer, 'db' | 'url'>, options: { email?: string; name?: string; organization?: string } = {}): Promise<WebOwner> {
  const email = options.email ?? `owner-${newId()}@owner.test`;
  const setup = await createSetupLink({ db: server.db.prisma, publicUrl: server.url });
  await page.goto(setup.link);
  await page.getByLabel('Organization name').fill(options.organization ?? 'Acme');
  await page.getByLabel('Your name').fill(options.name ?? 'Ada Owner');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('a-long-enough-password');
  await page.getByRole('button', { name: 'Create the owner account' }).click();
  await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
  const user = await server.db.prisma.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
  const workspace = await server.db.prisma.workspace.findFirstOrThrow({ where: { organizationId: user.organizationId }, orderBy: { createdAt: 'asc' } });
  return { email: user.email, organizationId: user.organizationId, workspaceId: workspace.id };
}
