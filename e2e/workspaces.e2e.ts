/**
 * A studio delivering together, in a real Chromium: the owner makes a team workspace, pays for
 * Business through Checkout, invites an editor and a viewer by email; each joins from the mailed
 * link; the owner publishes into the workspace; the editor sees the site with who published it and
 * can manage it, the viewer reads it but is offered no changes; the owner removes the viewer, whose
 * next request no longer reaches the workspace; the audit log tells it all and filters it; the owner
 * moves the site to her personal workspace from its settings.
 * Screenshots (1280 and 375 px, light and dark) go to /tmp/shots-workspaces/.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { publishSite, shootAllWays } from './engagement-helpers.ts';
import { linkFromOutbox, signUpThroughLink } from './account-support.ts';

const SHOTS_DIR = '/tmp/shots-workspaces';
const STUDIO = 'North Light Studio';

interface TPerson {
  name: string;
  email: string;
  context: BrowserContext;
  page: Page;
}

async function person(browser: Browser, baseURL: string, name: string): Promise<TPerson> {
  const context = await browser.newContext({ baseURL });
  const email = `${name.toLowerCase()}-${Date.now()}@studio.example`;
  await signUpThroughLink(context.request, baseURL, { email, password: 'correct horse battery', name });
  return { name, email, context, page: await context.newPage() };
}

const switcher = (page: Page) => page.getByRole('button', { name: /^Workspace: / });
const createSite = (page: Page) => page.getByRole('link', { name: 'Create New Site' }).or(page.getByRole('button', { name: 'Create New Site' }));

async function invite(page: Page, email: string, role: 'Editor' | 'Viewer') {
  await page.getByRole('button', { name: 'Invite people' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByLabel('Role').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText(role);
}

async function join(member: TPerson) {
  const link = await linkFromOutbox(member.email, '/invite/');
  await member.page.goto(new URL(link).pathname);
  await expect(member.page.getByRole('heading', { level: 1 })).toBeVisible();
  await member.page.getByRole('button', { name: `Join ${STUDIO}` }).click();
  await member.page.waitForURL(/\/dashboard$/);
  await expect(switcher(member.page)).toHaveAccessibleName(new RegExp(`^Workspace: ${STUDIO}\\s*, switch workspace$`));
}

test('an owner, an editor and a viewer deliver together; removing a member ends their access; the audit log keeps the record', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const owner = await person(browser, baseURL!, 'Ada');
  const editor = await person(browser, baseURL!, 'Ben');
  const viewer = await person(browser, baseURL!, 'Cleo');

  // The owner makes the team workspace from the header's switcher, by keyboard.
  const page = owner.page;
  await page.goto('/dashboard');
  await expect(switcher(page)).toHaveAccessibleName(/^Workspace: Ada Personal\s*, switch workspace$/);
  await switcher(page).focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Workspaces' });
  await expect(menu).toBeVisible();
  await shootAllWays(page, SHOTS_DIR, 'switcher-open');
  await menu.getByRole('menuitem', { name: 'Create workspace' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill(STUDIO);
  await page.getByRole('dialog').getByRole('button', { name: 'Create workspace' }).click();
  await expect(switcher(page)).toHaveAccessibleName(new RegExp(`^Workspace: ${STUDIO}\\s*, switch workspace$`));

  // Free has the owner's seat alone: the invitation is refused with the way to more seats.
  await page.goto('/dashboard/members');
  await page.getByRole('button', { name: 'Invite people' }).click();
  await page.getByRole('dialog').getByLabel('Email address').fill(editor.email);
  await page.getByRole('dialog').getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('dialog')).toContainText('Every seat of this workspace');
  await page.keyboard.press('Escape');

  // Business, paid by the workspace's owner through Checkout.
  await page.goto('/billing');
  await page.getByRole('button', { name: 'Upgrade to Business (billed monthly)' }).click();
  await page.waitForURL(/\/checkout\/cs_test_\w+$/);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('region', { name: 'Current plan' }).locator('.billing-current__name')).toHaveText('Business', { timeout: 20_000 });

  await page.goto('/dashboard/members');
  await invite(page, editor.email, 'Editor');
  await invite(page, viewer.email, 'Viewer');
  await expect(page.getByText(/3 seats|seats/).first()).toBeVisible();
  await shootAllWays(page, SHOTS_DIR, 'members-invited');

  // Each joins from the mailed link.
  const link = await linkFromOutbox(viewer.email, '/invite/');
  await viewer.page.goto(new URL(link).pathname);
  await expect(viewer.page.getByRole('button', { name: `Join ${STUDIO}` })).toBeVisible();
  await shootAllWays(viewer.page, SHOTS_DIR, 'invitation');
  await join(editor);
  await join(viewer);

  // The owner publishes into the workspace; the team sees it with who published it.
  await page.goto('/dashboard');
  await publishSite(owner.context.request, baseURL!, { title: 'Harbour Lookbook', images: [{ name: 'harbour.jpg', rgb: [40, 90, 140] }] });
  await editor.page.goto('/dashboard');
  const card = editor.page.locator('li.dash-card').filter({ hasText: 'Harbour Lookbook' });
  await expect(card.locator('.dash-card__date')).toHaveText(/^Created .+ by Ada$/);
  await expect(createSite(editor.page)).toBeVisible();
  await shootAllWays(editor.page, SHOTS_DIR, 'team-dashboard-editor');

  await viewer.page.goto('/dashboard');
  await expect(viewer.page.locator('li.dash-card').filter({ hasText: 'Harbour Lookbook' })).toBeVisible();
  await expect(createSite(viewer.page)).toHaveCount(0);
  // What the page hides, the server refuses too: a viewer publishes nothing into the workspace.
  const form = new FormData();
  form.append('title', 'Not mine to publish');
  const refused = await viewer.context.request.post('/api/upload', { multipart: form, headers: { Origin: baseURL! } });
  expect(refused.status()).toBe(403);

  // The owner removes the viewer: their very next request no longer reaches the workspace.
  await page.goto('/dashboard/members');
  await page.getByRole('button', { name: `Remove ${viewer.name}`, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove from workspace' }).click();
  await expect(page.getByRole('row').filter({ hasText: viewer.email })).toHaveCount(0);
  await viewer.page.reload();
  await expect(switcher(viewer.page)).toHaveAccessibleName(/^Workspace: Cleo Personal\s*, switch workspace$/);
  await expect(viewer.page.getByText('Harbour Lookbook')).toHaveCount(0);

  // The audit log: who invited, joined, published and was removed; filtered by type.
  await page.goto('/dashboard/audit');
  const events = page.getByRole('table');
  await expect(events).toContainText('Member removed');
  await expect(events).toContainText('Member joined');
  await expect(events).toContainText('Site published');
  await expect(events).toContainText('Plan changed');
  await shootAllWays(page, SHOTS_DIR, 'audit-log');
  await page.getByLabel('Event', { exact: true }).selectOption({ label: 'Member joined' });
  await expect(events.getByRole('row')).toHaveCount(3);
  await expect(events).not.toContainText('Member removed');
  const csv = page.getByRole('link', { name: 'Export CSV' });
  await expect(csv).toHaveAttribute('href', /audit\.csv\?type=member\.joined/);

  // The owner moves the site to her personal workspace from its settings: the team no longer lists it.
  await page.goto('/dashboard');
  await page.locator('li.dash-card').filter({ hasText: 'Harbour Lookbook' }).getByRole('link', { name: 'View Details' }).click();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const move = page.getByRole('region', { name: 'Move to another workspace' });
  await move.getByLabel('Move to').selectOption({ label: 'Ada (Personal)' });
  await shootAllWays(page, SHOTS_DIR, 'site-move');
  await move.getByRole('button', { name: 'Move site' }).click();
  await expect(switcher(page)).toHaveAccessibleName(/^Workspace: Ada Personal\s*, switch workspace$/);
  await page.goto('/dashboard');
  await expect(page.locator('li.dash-card').filter({ hasText: 'Harbour Lookbook' })).toBeVisible();
  await editor.page.goto('/dashboard');
  await expect(editor.page.getByRole('heading', { name: 'Harbour Lookbook' })).toHaveCount(0);

  for (const member of [owner, editor, viewer]) await member.context.close();
});
