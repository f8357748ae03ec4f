// The whole onboarding journey in a real browser (Debian's Chromium driven by
// playwright-core): the team's send-email call, the email as delivered to a
// real SMTP server, its link, the form (a rejected attempt, then a correct
// one with an ID image), and the case as the API shows it afterwards.
// Screenshots of each step go to tests/e2e/screenshots/ (git-ignored).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { chromiumAvailable, launchChromium, SCREENSHOTS } from '../helpers/browser.ts';
import { restClient } from '../helpers/http.ts';
import { passportImage } from '../helpers/sample-files.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { waitFor } from '../helpers/wait.ts';

const available = chromiumAvailable('the browser test');
const EMAIL = `jane.example.${Date.now().toString(36)}@example.org`;

let smtp: TestSmtpServer;
let service: RunningService;
let browser: Browser;
let rest: ReturnType<typeof restClient>;

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });

beforeAll(async () => {
  if (!available) return;
  smtp = await startSmtpServer();
  service = await startTestService({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'onboarding@northwind.example' } });
  rest = restClient(service.url, (await createOrganization(service.db, undefined, 'e2e')).key);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await smtp?.stop();
});

describe.skipIf(!available)('consumer onboarding in a browser', () => {
  it('goes from the invitation email to a submitted case', async () => {
    const sent = await rest('POST', '/v1/consumer-cases/onboarding/send-email', {
      fullName: 'Jane Marie Example', email: EMAIL, senderCompanyName: 'Northwind Bank',
    });
    expect(sent.status).toBe(201);
    const caseId: string = sent.body.consumerCaseId;

    // The link as the person receives it: taken from the delivered email, not from the API.
    const { mail } = await smtp.messageTo(EMAIL);
    const link = /https?:\/\/\S+\/onboarding\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    expect(mail.html).toContain(`href="${link}"`);

    // A phone-sized screen: the page is meant to be filled in on a phone.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));

    // The email as the person sees it, and its button followed like a click in a mail client.
    await page.setContent(mail.html as string, { waitUntil: 'load' });
    await shot(page, '00-email');
    await page.getByRole('link', { name: 'Verify my identity' }).click();
    await page.waitForURL(link!);
    await expect.poll(() => page.getByLabel('First name', { exact: true }).inputValue()).toBe('Jane Marie');
    expect(await page.getByLabel('Last name', { exact: true }).inputValue()).toBe('Example');
    expect(await page.locator('h1').textContent()).toContain('Verify your identity');
    expect(await page.textContent('body')).toContain('Northwind Bank');
    // No sideways scrolling on a 390 px screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, '01-opened');

    await page.getByLabel('Date of birth', { exact: true }).fill('1985-03-10');
    await page.getByLabel('Phone number', { exact: true }).fill('12345');
    await page.getByLabel('Nationality', { exact: true }).selectOption('GB');
    await page.getByLabel('Address line 1', { exact: true }).fill('221B Baker Street');
    await page.getByLabel('City', { exact: true }).fill('London');
    await page.getByLabel('Postal code', { exact: true }).fill('NW1 6XE');
    await page.getByLabel('Country', { exact: true }).selectOption('GB');

    // The first attempt has a bad phone number and no document: both are shown by their fields, nothing is lost.
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect.poll(() => page.locator('#error-phoneNumber').textContent()).toContain('must be a valid phone number');
    expect(await page.getByLabel('Phone number', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#error-documents-IDENTITY_DOCUMENT').textContent()).toContain('is required');
    expect(await page.locator('#error-summary').isVisible()).toBe(true);
    expect(await page.getByLabel('Address line 1', { exact: true }).inputValue()).toBe('221B Baker Street');
    await shot(page, '02-errors-inline');

    await page.getByLabel('Phone number', { exact: true }).fill('+44 20 7946 0958');
    await page.getByLabel('Identity document type', { exact: true }).selectOption('PASSPORT');
    const passport = await passportImage({
      lastName: 'EXAMPLE', firstNames: ['JANE', 'MARIE'], documentNumber: '123456789', nationality: 'GBR',
      birthDate: '850310', sex: 'F', expirationDate: '300101',
    });
    await page.getByLabel('Identity document', { exact: true }).setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: passport });
    await expect.poll(() => page.textContent('body'), { timeout: 15_000 }).toContain('Uploaded: passport.png');
    await shot(page, '03-filled-in');

    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor({ timeout: 15_000 });
    expect(await page.textContent('body')).toContain('Northwind Bank');
    await shot(page, '04-submitted');

    // The link is closed once used.
    await page.reload();
    expect(await page.locator('h1').textContent()).toBe('Already submitted');
    await shot(page, '05-link-used');
    // The browser logs the expected 400 (first attempt) and 410 (used link); nothing else may go wrong.
    expect(problems.filter((problem) => !/responded with a status of (400|410)/.test(problem))).toEqual([]);
    await context.close();

    // The team's view over the API.
    const updated = await rest('GET', `/v1/consumer-cases/${caseId}`);
    expect(updated.body).toMatchObject({
      email: EMAIL, status: 'IN_REVIEW', firstName: 'Jane Marie', lastName: 'Example', dateOfBirth: '1985-03-10',
      phoneNumber: '+442079460958', nationality: 'GB',
      address: { line1: '221B Baker Street', line2: null, city: 'London', region: null, postalCode: 'NW1 6XE', country: 'GB' },
    });
    const documents = await rest('GET', `/v1/documents?consumerCaseId=${caseId}`);
    expect(documents.body.items).toEqual([expect.objectContaining({ type: 'PASSPORT', fileName: 'passport.png', contentType: 'image/png' })]);
    const tasks = await rest('GET', `/v1/tasks?consumerCaseId=${caseId}`);
    expect(tasks.body.items).toEqual([expect.objectContaining({ title: 'Review onboarding submission of Jane Marie Example', priority: 'HIGH' })]);
    const onboarding = await rest('GET', `/v1/consumer-cases/onboarding/${link!.split('/').at(-1)}`);
    expect(onboarding.body).toMatchObject({ state: 'SUBMITTED', consumerCase: { id: caseId } });
    // The ID image was read and compared with what she typed.
    const note = await waitFor(async () => {
      const notes = await rest('GET', `/v1/notes?consumerCaseId=${caseId}`);
      return notes.body.items.find((n: { author: string }) => n.author === 'Onboarding checks');
    }, 'the onboarding checks note', 90_000);
    expect(note.body).toContain('firstName: entered "Jane Marie", document "JANE MARIE": matches');
    expect(note.body).toContain('dateOfBirth: entered "1985-03-10", document "1985-03-10": matches');
  }, 180_000);
});
