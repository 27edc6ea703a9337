/**
 * Text files in Windows-1252 or UTF-16 (Notepad's "Unicode") read right in the full preview,
 * not only on the card: the viewer decodes with the encoding the builder detected.
 */
import { expect, test, type Page } from '@playwright/test';
import { publish, type TUploadFile } from './visitor-support.ts';

test.describe.configure({ mode: 'serial' });

const WESTERN = 'café — “quoted” naïve façade';
const JAPANESE = '日本語のテキストです。「引用」';

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

/** Windows-1252 bytes of the Western line (the characters above 0x7F are the ones that differ from Latin-1). */
function cp1252(text: string): Buffer {
  const special: Record<string, number> = { '—': 0x97, '“': 0x93, '”': 0x94 };
  return Buffer.from([...text].map((c) => special[c] ?? c.charCodeAt(0)));
}

const FILES: Array<TUploadFile & { expected: string }> = [
  { name: 'western.txt', type: 'text/plain', bytes: cp1252(`${WESTERN}\r\nSecond line\r\n`), expected: WESTERN },
  { name: 'notepad-le.txt', type: 'text/plain', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${JAPANESE}\r\n2行目\r\n`, 'utf16le')]), expected: JAPANESE },
  { name: 'mac-be.txt', type: 'text/plain', bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(`${JAPANESE}\n${WESTERN}\n`)]), expected: `${JAPANESE}\n${WESTERN}` },
];

async function openPreview(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: `Preview of ${name}` });
  const open = page.getByRole('article', { name: `${name}: first lines` }).getByRole('button', { name: 'Open Preview' });
  // The click may land before the island hydrates: try again until the dialog opens.
  await expect(async () => {
    await open.click();
    await expect(dialog).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  return dialog;
}

test('the full preview decodes Windows-1252, UTF-16LE and UTF-16BE text as the builder detected it', async ({ page }) => {
  const slug = await publish(page.request, FILES);
  await page.goto(`/${slug}`);
  for (const file of FILES) {
    const card = page.getByRole('article', { name: `${file.name}: first lines` });
    await expect(card.locator('.tv-card__lines')).toContainText(file.expected.split('\n')[0]!);

    const dialog = await openPreview(page, file.name);
    await expect(dialog.getByRole('tabpanel')).toContainText(file.expected);
    await dialog.getByRole('tab', { name: 'Raw' }).click();
    const raw = (await dialog.locator('.tv-raw').textContent()) ?? '';
    expect(raw.replace(/\r\n/g, '\n')).toContain(file.expected);
    expect(raw).not.toContain('\uFFFD');
    expect(raw).not.toContain('\uFEFF');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});
