/** The check every consumer app passes: a chosen file, uploaded from the page, is stored byte-identical. */
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

/** The token the pages are given (the service's development user). */
export const TOKEN = 'dev-token-alice';

/**
 * Chooses a file in the page's dropzone (inside the element's shadow root: Playwright's CSS pierces open shadow
 * roots), waits for its ID in `<output id="ids">` and reads the stored bytes back from the service. The uploader
 * verifies the service's MD5 of the file against its own, so a stored file also passed that check.
 */
export async function uploadByteIdentical(
  page: Page,
  serviceUrl: string,
  name: string,
  expectedHost = 'shared-extended',
): Promise<void> {
  const bytes = randomBytes(300 * 1024 + 7);
  await page
    .locator('input[type=file]:not([webkitdirectory])')
    .first()
    .setInputFiles({
      name: `${name.replace(/\W+/g, '-')}.bin`,
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
  await expect(page.locator('#ids')).not.toBeEmpty({ timeout: 30_000 });
  const id = (await page.locator('#ids').textContent())!.trim();
  const stored = await fetch(`${serviceUrl}/store/v3/files/${id}?alt=media`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(stored.status).toBe(200);
  expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
  // The app's bundler (or the script tag, or the app's copy of the workers) started the site's shared worker, not a
  // fallback of the page's own, unless the page asked for its own (`expectedHost`).
  const host = await page.evaluate(() => {
    type WithUploader = { activeUploader?: { host?: string }; uploader?: { host?: string } };
    const el = document.querySelector(
      'store-uploader, store-dropzone, store-progress-list',
    ) as unknown as WithUploader | null;
    return (el?.activeUploader ?? el?.uploader)?.host;
  });
  expect(host).toBe(expectedHost);
}
