// GraphiQL in a real browser (Debian's Chromium driven by playwright-core)
// with every request to another address refused, as offline: the page
// renders its editor under its Content-Security-Policy, loads the schema and
// runs the default query against this service. A screenshot goes to
// tests/e2e/screenshots/ (git-ignored).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { chromiumAvailable, launchChromium, SCREENSHOTS } from '../helpers/browser.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

const available = chromiumAvailable('the GraphiQL browser test');

let service: RunningService;
let browser: Browser;
let key: string;

beforeAll(async () => {
  if (!available) return;
  service = await startTestService();
  key = (await createOrganization(service.db, undefined, 'graphiql')).key;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe.skipIf(!available)('GraphiQL offline', () => {
  it('renders, loads the schema and runs a query with nothing from outside', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => /Content.Security.Policy|Refused to/i.test(message.text()) && problems.push(message.text()));
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(service.url) || url.startsWith('blob:') || url.startsWith('data:')) {
        // The key the person would type into the Headers tab.
        const headers = route.request().method() === 'POST' ? { ...route.request().headers(), 'x-api-key': key } : undefined;
        return route.continue(headers ? { headers } : undefined);
      }
      elsewhere.push(url);
      return route.abort('internetdisconnected');
    });

    await page.goto(`${service.url}/graphql`, { waitUntil: 'load' });
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
    await page.locator('.graphiql-query-editor .monaco-editor, .graphiql-query-editor .CodeMirror').first().waitFor({ timeout: 30_000 });
    await page.locator('.graphiql-execute-button').first().click();
    const response = page.locator('.graphiql-response').first();
    await expect.poll(() => response.textContent(), { timeout: 30_000 }).toContain('"consumerCases"');
    expect(await response.textContent()).toContain('"totalPages"');
    await page.screenshot({ path: `${SCREENSHOTS}graphiql.png` });

    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  }, 90_000);
});
