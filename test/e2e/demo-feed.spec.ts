/**
 * The demo's live change feed end to end: a real `store-relay` and a `store-service` that trusts it (via
 * `startDemoFixture({ relay: true })`), the built demo page reading the relay through `/relay` on its own origin as
 * under `npm start`. Changes made through the API, not the page, must show up in the page's feed by file name, and
 * the stored-files table must follow.
 */
import { expect, test } from '@playwright/test';
import { startDemoFixture, type DemoFixture } from './demo-fixture.ts';

let demo: DemoFixture;

test.beforeAll(async () => {
  demo = await startDemoFixture({ relay: true });
});
test.afterAll(async () => {
  await demo?.stop();
});

test('changes made through the API appear in the live feed and the stored-files table', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(demo.pageUrl());
  const feed = page.getByRole('list', { name: 'Changes, newest first' });
  await expect(page.locator('#feed-status')).toContainText('Watching the change log until');
  await expect(feed.getByRole('listitem')).toHaveCount(1);
  await expect(feed.getByRole('listitem').first()).toContainText('Connected: changes to your files will show up here.');

  // The README's curl line: a simple upload as the demo's user, from outside the page.
  const created = await demo.service.api('POST', '/upload/store/v3/files?uploadType=media', {
    headers: { 'content-type': 'text/plain' },
    body: 'hello from curl',
  });
  expect(created.status, created.text).toBe(200);
  const id = created.json<{ id: string }>().id;
  await expect(feed.getByRole('listitem').first()).toContainText('Untitled added');
  await expect(page.locator(`#stored tr[data-id="${id}"]`)).toContainText('15 bytes');

  // A rename, then trash, each described by the file's current name.
  expect((await demo.service.api('PATCH', `/store/v3/files/${id}`, { body: { name: 'greeting.txt' } })).status).toBe(
    200,
  );
  await expect(feed.getByRole('listitem').first()).toContainText('greeting.txt changed');
  await expect(page.locator(`#stored tr[data-id="${id}"]`).getByRole('rowheader')).toHaveText('greeting.txt');
  expect((await demo.service.api('PATCH', `/store/v3/files/${id}`, { body: { trashed: true } })).status).toBe(200);
  await expect(feed.getByRole('listitem').first()).toContainText('greeting.txt moved to the trash');
  // The table lists files not in the trash.
  await expect(page.locator(`#stored tr[data-id="${id}"]`)).toHaveCount(0);

  // A removed file carries no name in the change log; the feed keeps the last one it saw.
  expect((await demo.service.api('DELETE', `/store/v3/files/${id}`)).status).toBe(204);
  await expect(feed.getByRole('listitem').first()).toContainText('greeting.txt removed');

  // Another user's private file is not Alice's change: nothing new in her feed for it.
  const count = await feed.getByRole('listitem').count();
  const bobs = await demo.service.api('POST', '/store/v3/files', {
    token: 'dev-token-bob',
    body: { name: 'bobs-secret.txt' },
  });
  expect(bobs.status).toBe(200);
  // A change Alice does see, made after Bob's, proves the feed has caught up past Bob's change.
  const marker = await demo.service.api('POST', '/store/v3/files', { body: { name: 'marker.txt' } });
  expect(marker.status).toBe(200);
  await expect(feed.getByRole('listitem').first()).toContainText('marker.txt added');
  await expect(feed.getByRole('listitem')).toHaveCount(count + 1);
  await expect(feed).not.toContainText('bobs-secret.txt');
  expect(errors).toEqual([]);
});
