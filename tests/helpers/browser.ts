// Debian's Chromium driven by playwright-core, for the end-to-end tests
// (Playwright's own browser download does not work offline).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where screenshots go (git-ignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../e2e/screenshots/', import.meta.url));

/**
 * Whether Chromium is there. CI installs it and sets REQUIRE_CHROMIUM=1, so
 * there a missing browser fails instead of skipping `what`.
 */
export function chromiumAvailable(what: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.REQUIRE_CHROMIUM === '1') throw new Error(`REQUIRE_CHROMIUM=1 but there is no browser at ${CHROMIUM}`);
  if (!available) console.warn(`Skipping ${what}: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return available;
}

/** Headless Chromium without its background traffic (refused here, many at a time). */
export async function launchChromium() {
  await mkdir(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
