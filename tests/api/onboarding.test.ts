// Consumer onboarding over HTTP: the team's invitation (REST and GraphQL),
// delivery to a real SMTP server, the token-only endpoints of the page, the
// submission and the checks that follow it, and what a token cannot do.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueDueChecks } from '../../src/onboarding/after-submission.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { passportImage, png } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { capturedLogs } from '../helpers/logs.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { waitFor } from '../helpers/wait.ts';

const DATASETS = fileURLToPath(new URL('../../../shared/datasets/sanctions/', import.meta.url));
const PEPS = `onboarding-peps-${Date.now().toString(36)}`;

let smtp: TestSmtpServer;
let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;
let person: ReturnType<typeof restClient>;
/** Every log line the service writes, and every token it issued here. */
const { logger: serviceLogger, lines: logLines } = capturedLogs();
const issuedTokens: string[] = [];

const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.org`;

/** What the organization's database holds: cases and invitations. */
async function counts(organizationId: string) {
  const [cases, invitations] = await Promise.all([
    service.db.consumerCase.count({ where: { organizationId } }),
    service.db.onboardingInvitation.count({ where: { organizationId } }),
  ]);
  return { cases, invitations };
}

async function invite(body: Record<string, unknown>) {
  const response = await rest('POST', '/v1/consumer-cases/onboarding/send-email', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  issuedTokens.push(response.body.token);
  return response.body as { success: true; token: string; consumerCaseId: string; linkedExistingCase: boolean; expiresAt: string };
}

async function uploadDocument(token: string, kind: string, data: Buffer, query = '', filename = 'passport.png') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), filename);
  const response = await fetch(`${service.url}/onboarding/${token}/documents/${kind}${query}`, { method: 'PUT', body: form });
  return { status: response.status, body: await response.json() };
}

const VALID_VALUES = {
  firstName: 'Jake',
  lastName: 'Auchincloss',
  dateOfBirth: '1988-01-29',
  phoneNumber: '+1 617 555 0100',
  nationality: 'US',
  'address.line1': '1 Beacon Street',
  'address.city': 'Boston',
  'address.region': 'MA',
  'address.postalCode': '02108',
  'address.country': 'US',
};

beforeAll(async () => {
  smtp = await startSmtpServer({ refuseRecipients: /^refused/ });
  const sources = [{ id: PEPS, name: 'US Congress PEPs', format: 'senzing-json', files: { primary: `${DATASETS}us_congress_senzing.json` } }];
  service = await startTestService({
    logger: serviceLogger,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'kyc@bank.example', MAIL_ALLOWED_FROM_DOMAINS: 'acme.example, Bank.example', WATCHLIST_SOURCES: JSON.stringify(sources), WATCHLIST_REFRESH_CRON: 'off', ADVERSE_MEDIA_PROVIDER: 'off' },
  });
  org = await createOrganization(service.db, undefined, 'onboarding');
  rest = restClient(service.url, org.key);
  person = restClient(service.url);
  await waitFor(() => service.db.watchlistLoad.findFirst({ where: { sourceId: PEPS, status: 'LOADED' } }), 'the PEP list');
}, 120_000);
afterAll(async () => {
  await service?.stop();
  await smtp?.stop();
});

describe('POST /v1/consumer-cases/onboarding/send-email', () => {
  it('emails a working link (HTML and text, sender company) and opens an INVITED case', async () => {
    const email = uniqueEmail('jane');
    const sent = await invite({ fullName: 'Jane <b>Doe</b>', email, from: 'onboarding@acme.example', senderCompanyName: 'Acme & Sons Bank' });
    expect(sent).toMatchObject({ success: true, linkedExistingCase: false });
    expect(sent.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(sent.expiresAt) - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(Date.parse(sent.expiresAt) - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600_000);

    const { envelope, user, mail } = await smtp.messageTo(email);
    const link = `${service.url}/onboarding/${sent.token}`;
    expect(user).toBe('mailer');
    // Bounces go to the platform's own address; the From header is the requested one.
    expect(envelope).toEqual({ from: 'kyc@bank.example', to: [email] });
    expect(mail.to).toMatchObject({ value: [{ address: email }] });
    expect(mail.from?.value).toEqual([{ address: 'onboarding@acme.example', name: 'Acme & Sons Bank' }]);
    expect(mail.subject).toBe('Acme & Sons Bank: please verify your identity');
    expect(mail.text).toContain('Hello Jane <b>Doe</b>,');
    expect(mail.text).toContain(`Open this link to start: ${link}`);
    // The HTML shows the name as text, never as markup.
    expect(mail.html).toContain('Hello Jane &lt;b&gt;Doe&lt;/b&gt;,');
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('Acme &amp; Sons Bank');

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('Acme &amp; Sons Bank');
    expect(html).toContain('/onboarding/assets/onboarding.js');

    const onboarding = await rest('GET', `/v1/consumer-cases/onboarding/${sent.token}`);
    expect(onboarding.status).toBe(200);
    expect(onboarding.body).toMatchObject({
      state: 'INVITED', email, fullName: 'Jane <b>Doe</b>', fromAddress: 'onboarding@acme.example', openedAt: null, submittedAt: null,
      branding: { companyName: 'Acme & Sons Bank' },
      consumerCase: { id: sent.consumerCaseId, email, status: 'INVITED', firstName: 'Jane', lastName: '<b>Doe</b>' },
      documents: [{ kind: 'IDENTITY_DOCUMENT', required: true, documentType: null, file: null }],
    });
    expect(onboarding.body.expiresAt).toBe(sent.expiresAt);
    expect(onboarding.body.fields.map((field: { name: string }) => field.name)).toEqual([
      'firstName', 'lastName', 'dateOfBirth', 'phoneNumber', 'nationality',
      'address.line1', 'address.line2', 'address.city', 'address.region', 'address.postalCode', 'address.country',
    ]);
    expect(onboarding.body.fields[0]).toMatchObject({ name: 'firstName', label: 'First name', required: true, value: 'Jane' });
  });

  it('stores only a hash of the token', async () => {
    const email = uniqueEmail('hash');
    const sent = await invite({ fullName: 'Hash Check', email });
    const rows = await service.db.$queryRawUnsafe<Array<{ row: string }>>(
      'SELECT row_to_json(i)::text AS row FROM onboarding_invitations i WHERE consumer_case_id = $1::uuid', sent.consumerCaseId,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.row).not.toContain(sent.token);
    expect(rows[0]!.row).toContain(createHash('sha256').update(sent.token).digest('hex'));
  });

  it('falls back to the configured sender and the organization name', async () => {
    const email = uniqueEmail('defaults');
    await invite({ fullName: 'Default Sender', email });
    const { mail } = await smtp.messageTo(email);
    expect(mail.from?.value).toEqual([{ address: 'kyc@bank.example', name: org.name }]);
    expect(mail.subject).toBe(`${org.name}: please verify your identity`);
  });

  it('links an existing case with that email, and a new invitation replaces the open one', async () => {
    const email = uniqueEmail('existing');
    const created = await rest('POST', '/v1/consumer-cases', { email, firstName: 'Erika', lastName: 'Mustermann' });
    expect(created.body.status).toBe('PENDING');
    const first = await invite({ fullName: 'Erika Mustermann', email: email.toUpperCase(), requestProofOfAddress: true });
    expect(first).toMatchObject({ linkedExistingCase: true, consumerCaseId: created.body.id });
    const linked = await rest('GET', `/v1/consumer-cases/${created.body.id}`);
    expect(linked.body).toMatchObject({ status: 'INVITED', firstName: 'Erika', lastName: 'Mustermann' });
    const firstView = await rest('GET', `/v1/consumer-cases/onboarding/${first.token}`);
    expect(firstView.body.documents.map((d: { kind: string }) => d.kind)).toEqual(['IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS']);

    const second = await invite({ fullName: 'Erika Mustermann', email });
    expect(second.consumerCaseId).toBe(created.body.id);
    expect((await rest('GET', `/v1/consumer-cases/onboarding/${first.token}`)).body.state).toBe('REVOKED');
    const oldPage = await fetch(`${service.url}/onboarding/${first.token}`);
    expect(oldPage.status).toBe(410);
    expect(await oldPage.text()).toContain('This link was replaced');
    expect((await person('GET', `/onboarding/${second.token}/form`)).status).toBe(200);

    const invitations = await graphqlClient(service.url, org.key)(
      'query($id: ID!) { consumerCase(id: $id) { onboardingInvitations { state } } }', { id: created.body.id },
    );
    expect(invitations.data.consumerCase.onboardingInvitations).toEqual([{ state: 'OPENED' }, { state: 'REVOKED' }]);
  });

  it('is a GraphQL mutation and query too', async () => {
    const gql = graphqlClient(service.url, org.key);
    const email = uniqueEmail('graphql');
    const sent = await gql(
      'mutation($input: SendOnboardingEmailInput!) { sendOnboardingEmail(input: $input) { success token onboarding { state email consumerCase { status } } } }',
      { input: { fullName: 'Graph Q. Ell', email, senderCompanyName: 'GQL Bank', expiresInHours: 2 } },
    );
    expect(sent.errors).toBeUndefined();
    expect(sent.data.sendOnboardingEmail).toMatchObject({ success: true, onboarding: { state: 'INVITED', email, consumerCase: { status: 'INVITED' } } });
    const view = await gql('query($token: String!) { consumerOnboarding(token: $token) { state expiresAt branding { companyName } fields { name value } } }', {
      token: sent.data.sendOnboardingEmail.token,
    });
    expect(view.data.consumerOnboarding.branding).toEqual({ companyName: 'GQL Bank' });
    expect(Date.parse(view.data.consumerOnboarding.expiresAt) - Date.now()).toBeLessThanOrEqual(2 * 3600_000);
    expect(view.data.consumerOnboarding.fields.slice(0, 2)).toEqual([{ name: 'firstName', value: 'Graph Q.' }, { name: 'lastName', value: 'Ell' }]);
    expect((await smtp.messageTo(email)).mail.subject).toBe('GQL Bank: please verify your identity');
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const before = await counts(org.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ fullName: 'No Email' }, 'email: is required'],
      [{ fullName: 'Bad Email', email: 'not-an-email' }, 'email: must be a valid email address'],
      [{ fullName: '  ', email: uniqueEmail('blank') }, 'fullName: must not be empty'],
      [{ fullName: 'Header\r\nBcc: victim@example.org', email: uniqueEmail('inject') }, 'fullName: must not contain control characters'],
      [{ fullName: 'Bad From', email: uniqueEmail('from'), from: 'nobody' }, 'from: must be a valid email address'],
      [{ fullName: 'Spoofed From', email: uniqueEmail('spoof'), from: 'ceo@otherbank.example' }, 'from: otherbank.example is not an allowed sender domain; allowed: acme.example, bank.example'],
      [{ fullName: 'Long Link', email: uniqueEmail('ttl'), expiresInHours: 0 }, 'expiresInHours: must be between 1 and 2160'],
      [{ fullName: 'Wrong Type', email: uniqueEmail('type'), requestProofOfAddress: 'yes' }, 'requestProofOfAddress'],
    ];
    for (const [body, message] of cases) {
      const response = await rest('POST', '/v1/consumer-cases/onboarding/send-email', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(response.body.message).toContain(message);
    }
    expect(await counts(org.id)).toEqual(before);
  });

  it('answers 502 when the mail server refuses, leaving no case and no invitation', async () => {
    const before = await counts(org.id);
    const received = smtp.received.length;
    const response = await rest('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: 'Refused Person', email: uniqueEmail('refused') });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      statusCode: 502, error: 'Bad Gateway',
      message: 'Could not send the email: the mail server refused the sender or recipient address (SMTP 550)',
    });
    expect(await counts(org.id)).toEqual(before);
    expect(smtp.received.length).toBe(received);
  });

  it('leaves an existing case and its open link as they were when the mail server refuses', async () => {
    const email = `refused.${Date.now().toString(36)}@example.org`;
    const created = await rest('POST', '/v1/consumer-cases', { email });
    // Invite while deliverable: not possible for this address, so give the case an open link directly.
    const first = await invite({ fullName: 'Refused Later', email: uniqueEmail('other') });
    await service.db.onboardingInvitation.updateMany({ where: { consumerCaseId: first.consumerCaseId }, data: { consumerCaseId: created.body.id, email } });
    const before = await counts(org.id);
    const response = await rest('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: 'Refused Later', email });
    expect(response.status).toBe(502);
    expect(await counts(org.id)).toEqual(before);
    expect((await rest('GET', `/v1/consumer-cases/${created.body.id}`)).body.status).toBe('PENDING');
    expect((await rest('GET', `/v1/consumer-cases/onboarding/${first.token}`)).body).toMatchObject({ state: 'INVITED', consumerCase: { id: created.body.id } });
  });

  it('answers 502 when the mail server cannot be reached, leaving nothing', async () => {
    const closed = await startSmtpServer();
    const deadUrl = closed.url;
    await closed.stop();
    const other = await startTestService({ env: { SMTP_URL: deadUrl } });
    try {
      const otherOrg = await createOrganization(other.db, undefined, 'dead-smtp');
      const before = await counts(otherOrg.id);
      const response = await restClient(other.url, otherOrg.key)('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: 'Nobody Home', email: uniqueEmail('dead') });
      expect(response.status).toBe(502);
      expect(response.body.message).toBe('Could not send the email: the mail server could not be reached');
      expect(await counts(otherOrg.id)).toEqual(before);
    } finally {
      await other.stop();
    }
  });

  it('drops a mail server that does not answer in time: 502, nothing created, no message accepted', async () => {
    const stalling = await startSmtpServer({ stallAfterData: true });
    const other = await startTestService({ env: { SMTP_URL: stalling.url, SMTP_SEND_TIMEOUT_MS: '1500' } });
    try {
      const otherOrg = await createOrganization(other.db, undefined, 'stalling-smtp');
      const started = Date.now();
      const response = await restClient(other.url, otherOrg.key)('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: 'Slow Server', email: uniqueEmail('slow') });
      expect(response.status).toBe(502);
      expect(response.body.message).toBe('Could not send the email: the mail server did not answer in time');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await other.db.consumerCase.count({ where: { organizationId: otherOrg.id } })).toBe(0);
      expect(await other.db.onboardingInvitation.count({ where: { organizationId: otherOrg.id } })).toBe(0);
      expect(stalling.received).toHaveLength(0);
    } finally {
      await other.stop();
      await stalling.stop();
    }
  });

  it('lets a request send only from MAIL_FROM\'s domain unless other domains are allowed', async () => {
    const local = await startTestService({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'kyc@northwind.example' } });
    try {
      const localOrg = await createOrganization(local.db, undefined, 'from-default');
      const send = (from: string) => restClient(local.url, localOrg.key)('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: 'From Test', email: uniqueEmail('from'), from });
      expect((await send('onboarding@northwind.example')).status).toBe(201);
      const spoofed = await send('ceo@bank.example');
      expect(spoofed.status).toBe(400);
      expect(spoofed.body.message).toBe('from: bank.example is not an allowed sender domain; allowed: northwind.example');
    } finally {
      await local.stop();
    }
  });

  it('reuses a case under review without undoing its status', async () => {
    const email = uniqueEmail('reviewed');
    const created = await rest('POST', '/v1/consumer-cases', { email, firstName: 'Rita', lastName: 'Review', phoneNumber: '+44 20 7946 0000' });
    expect((await rest('PATCH', `/v1/consumer-cases/${created.body.id}`, { status: 'IN_REVIEW' })).status).toBe(200);
    const sent = await invite({ fullName: 'Rita Review', email });
    expect(sent).toMatchObject({ consumerCaseId: created.body.id, linkedExistingCase: true });
    expect((await rest('GET', `/v1/consumer-cases/${created.body.id}`)).body.status).toBe('IN_REVIEW');
    const form = await person('GET', `/onboarding/${sent.token}/form`);
    expect(form.body.fields.find((f: { name: string }) => f.name === 'phoneNumber').value).toBe('+442079460000');
  });

  it('without SMTP_URL writes the email to the local outbox and logs the link', async () => {
    const outbox = await mkdtemp(join(tmpdir(), 'onboarding-outbox-'));
    const { logger, lines } = capturedLogs();
    const local = await startTestService({ env: { MAIL_OUTBOX_DIR: outbox }, logger });
    try {
      const localOrg = await createOrganization(local.db, undefined, 'outbox');
      const email = uniqueEmail('outbox');
      const sent = await restClient(local.url, localOrg.key)('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: 'Out Box', email });
      expect(sent.status).toBe(201);
      const files = await readdir(outbox);
      expect(files).toEqual([expect.stringMatching(/^[\dT-]+Z-[\w.-]+\.eml$/)]);
      const mail = await simpleParser(await readFile(join(outbox, files[0]!)));
      const link = `${local.url}/onboarding/${sent.body.token}`;
      expect(mail.to).toMatchObject({ value: [{ address: email }] });
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link}"`);
      const logged = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'onboarding link (local outbox)');
      expect(logged).toMatchObject({ to: email, link, file: join(outbox, files[0]!) });
      expect((await fetch(link)).status).toBe(200);
    } finally {
      await local.stop();
      await rm(outbox, { recursive: true, force: true });
    }
  });

  it('keeps invitations within the organization', async () => {
    const sent = await invite({ fullName: 'Private Person', email: uniqueEmail('private') });
    const otherOrg = await createOrganization(service.db, undefined, 'onboarding-other');
    const other = restClient(service.url, otherOrg.key);
    const response = await other('GET', `/v1/consumer-cases/onboarding/${sent.token}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Onboarding invitation not found' });
    expect((await other('GET', `/v1/consumer-cases/${sent.consumerCaseId}`)).status).toBe(404);
    // Reading needs consumer_cases:read, sending consumer_cases:write.
    const readOnly = await createOrganization(service.db, ['consumer_cases:read'], 'onboarding-read-only');
    const denied = await restClient(service.url, readOnly.key)('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: 'X Y', email: uniqueEmail('denied') });
    expect(denied.status).toBe(403);
  });
});

describe('the onboarding page and its token endpoints', () => {
  it('answers unknown links with a friendly 404 page and JSON 404s', async () => {
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(300)]) {
      const page = await fetch(`${service.url}/onboarding/${token}`);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('Link not found');
      const form = await person('GET', `/onboarding/${token}/form`);
      expect(form.status).toBe(404);
      expect(form.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('grants nothing but its own form: not an API key, not GraphQL', async () => {
    const sent = await invite({ fullName: 'Token Holder', email: uniqueEmail('holder') });
    expect((await restClient(service.url, sent.token)('GET', '/v1/consumer-cases')).status).toBe(401);
    expect((await restClient(service.url, sent.token)('GET', `/v1/consumer-cases/onboarding/${sent.token}`)).status).toBe(401);
    const gql = await graphqlClient(service.url, sent.token)('{ consumerCases { items { id } } }');
    expect(gql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const form = await person('GET', `/onboarding/${sent.token}/form`);
    // The person's view names no internal ids.
    expect(JSON.stringify(form.body)).not.toContain(sent.consumerCaseId);
    expect(JSON.stringify(form.body)).not.toContain(org.id);
  });

  it('treats an expired link as gone (410) and shows EXPIRED to the team', async () => {
    const sent = await invite({ fullName: 'Late Person', email: uniqueEmail('late') });
    await service.db.onboardingInvitation.updateMany({ where: { consumerCaseId: sent.consumerCaseId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const page = await fetch(`${service.url}/onboarding/${sent.token}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This link has expired');
    const submit = await person('POST', `/onboarding/${sent.token}/submit`, { values: VALID_VALUES });
    expect(submit.status).toBe(410);
    expect(submit.body).toMatchObject({ statusCode: 410, error: 'Gone' });
    expect((await rest('GET', `/v1/consumer-cases/onboarding/${sent.token}`)).body.state).toBe('EXPIRED');
  });

  it('takes the person from opening to submission; the case, documents, task, analysis and screening follow', async () => {
    const email = uniqueEmail('jake');
    const sent = await invite({ fullName: 'Jake Auchincloss', email, senderCompanyName: 'Harbor Bank' });
    const url = (path: string) => `/onboarding/${sent.token}${path}`;

    const form = await person('GET', url('/form'));
    expect(form.status).toBe(200);
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.body).toMatchObject({ state: 'OPENED', branding: { companyName: 'Harbor Bank' }, invitedName: 'Jake Auchincloss' });
    expect(form.body.countries).toContainEqual({ code: 'US', name: 'United States of America' });
    expect((await rest('GET', `/v1/consumer-cases/onboarding/${sent.token}`)).body.openedAt).not.toBeNull();

    // A draft survives a reload; bad drafts are refused.
    expect((await person('PUT', url('/draft'), { values: { 'address.city': 'Bost' } })).body).toEqual({ saved: true });
    expect((await person('GET', url('/form'))).body.fields.find((f: { name: string }) => f.name === 'address.city').value).toBe('Bost');
    const badDraft = await person('PUT', url('/draft'), { values: { isAdmin: 'true' } });
    expect(badDraft.status).toBe(400);

    // Submitting without the document or with bad fields: every problem by field, nothing changed, entries kept.
    const invalid = await person('POST', url('/submit'), { values: { ...VALID_VALUES, dateOfBirth: '2999-01-01', phoneNumber: '12' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual({
      dateOfBirth: 'must not be in the future',
      phoneNumber: 'must be a valid phone number in international format, e.g. +14155550123',
      'documents.IDENTITY_DOCUMENT': 'is required',
    });
    expect((await rest('GET', `/v1/consumer-cases/${sent.consumerCaseId}`)).body).toMatchObject({ status: 'INVITED', dateOfBirth: null });
    expect((await person('GET', url('/form'))).body.fields.find((f: { name: string }) => f.name === 'dateOfBirth').value).toBe('2999-01-01');

    // Uploads: refused types and kinds the form does not ask for; a second upload replaces the first.
    expect((await uploadDocument(sent.token, 'IDENTITY_DOCUMENT', Buffer.from('plain text, not an image'), '', 'notes.txt')).status).toBe(415);
    expect((await uploadDocument(sent.token, 'PROOF_OF_ADDRESS', png())).status).toBe(404);
    expect((await uploadDocument(sent.token, 'IDENTITY_DOCUMENT', png(), '?documentType=SELFIE')).status).toBe(400);
    const first = await uploadDocument(sent.token, 'IDENTITY_DOCUMENT', png(), '?documentType=ID_CARD', 'first.png');
    expect(first.status).toBe(200);
    const passport = await passportImage({
      lastName: 'AUCHINCLOSS', firstNames: ['JAKE'], documentNumber: '123456789', nationality: 'USA',
      birthDate: '880129', sex: 'M', expirationDate: '330101',
    });
    const uploaded = await uploadDocument(sent.token, 'IDENTITY_DOCUMENT', passport, '?documentType=PASSPORT');
    expect(uploaded).toMatchObject({ status: 200, body: { kind: 'IDENTITY_DOCUMENT', documentType: 'PASSPORT', file: { fileName: 'passport.png', contentType: 'image/png' } } });
    expect(await service.db.storedFile.count({ where: { organizationId: org.id, fileName: 'first.png' } })).toBe(0);

    const submitted = await person('POST', url('/submit'), { values: VALID_VALUES });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body).toEqual({ state: 'SUBMITTED', submittedAt: expect.any(String) });

    const updated = await rest('GET', `/v1/consumer-cases/${sent.consumerCaseId}`);
    expect(updated.body).toMatchObject({
      status: 'IN_REVIEW', firstName: 'Jake', lastName: 'Auchincloss', dateOfBirth: '1988-01-29', phoneNumber: '+16175550100', nationality: 'US',
      address: { line1: '1 Beacon Street', line2: null, city: 'Boston', region: 'MA', postalCode: '02108', country: 'US' },
    });
    const documents = await rest('GET', `/v1/documents?consumerCaseId=${sent.consumerCaseId}`);
    expect(documents.body.items).toHaveLength(1);
    expect(documents.body.items[0]).toMatchObject({ type: 'PASSPORT', status: 'UPLOADED', fileName: 'passport.png', contentType: 'image/png', fileKey: expect.stringMatching(/^private\//) });
    const tasks = await rest('GET', `/v1/tasks?consumerCaseId=${sent.consumerCaseId}`);
    expect(tasks.body.items).toEqual([expect.objectContaining({ title: 'Review onboarding submission of Jake Auchincloss', priority: 'HIGH', status: 'TODO' })]);
    const teamView = await rest('GET', `/v1/consumer-cases/onboarding/${sent.token}`);
    expect(teamView.body).toMatchObject({ state: 'SUBMITTED', documents: [{ kind: 'IDENTITY_DOCUMENT', documentType: 'PASSPORT', file: { fileName: 'passport.png' } }] });
    // The team hears of it: an event for webhooks and the feed.
    // (The feed shows a transaction once every older one has ended, so it may take a moment.)
    const events = await waitFor(async () => {
      const feed = await rest('GET', `/v1/events?type=onboarding.submitted&resourceId=${sent.consumerCaseId}`);
      return feed.body.items?.length ? feed.body.items : null;
    }, 'the onboarding.submitted event', 30_000);
    expect(events).toEqual([expect.objectContaining({ type: 'onboarding.submitted', resourceType: 'consumer_case', resourceId: sent.consumerCaseId })]);

    // The link is closed now.
    expect((await fetch(`${service.url}${url('')}`)).status).toBe(410);
    expect((await person('POST', url('/submit'), { values: VALID_VALUES })).status).toBe(410);
    expect((await uploadDocument(sent.token, 'IDENTITY_DOCUMENT', png())).status).toBe(410);

    // The queued checks: identity analysis, screening (he is on the PEP list), risk, and a note saying so.
    const note = await waitFor(async () => {
      const notes = await rest('GET', `/v1/notes?consumerCaseId=${sent.consumerCaseId}`);
      return notes.body.items.find((n: { author: string }) => n.author === 'Onboarding checks');
    }, 'the onboarding checks note', 90_000);
    expect(note.body).toContain('machine-readable zone valid');
    expect(note.body).toContain('lastName: entered "Auchincloss", document "AUCHINCLOSS": matches');
    expect(note.body).toContain('dateOfBirth: entered "1988-01-29", document "1988-01-29": matches');
    expect(note.body).toMatch(/Screening [0-9a-f-]{36}: \d+ possible match/);
    const screenings = await rest('GET', `/v1/screenings?consumerCaseId=${sent.consumerCaseId}`);
    expect(screenings.body.items[0]).toMatchObject({ trigger: 'ONBOARDING', outcome: 'PENDING_REVIEW', requestedBy: 'Onboarding checks' });
    const risk = await rest('GET', `/v1/consumer-cases/${sent.consumerCaseId}/risk-assessment`);
    expect(risk.status).toBe(200);
  }, 120_000);

  it('answers malformed requests with 4xx and changes nothing', async () => {
    const sent = await invite({ fullName: 'Bad Requests', email: uniqueEmail('bad') });
    const url = `${service.url}/onboarding/${sent.token}`;
    expect((await uploadDocument(sent.token, 'FOO', png())).status).toBe(404);
    const noPart = await fetch(`${url}/documents/IDENTITY_DOCUMENT`, { method: 'PUT', body: new FormData() });
    expect(noPart.status).toBe(400);
    const notMultipart = await fetch(`${url}/documents/IDENTITY_DOCUMENT`, { method: 'PUT', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(notMultipart.status).toBe(415);
    const malformed = await fetch(`${url}/submit`, { method: 'POST', body: '{"values":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Malformed JSON in request body' });
    expect((await person('PUT', `/onboarding/${sent.token}/draft`, {})).status).toBe(400);
    expect((await person('POST', `/onboarding/${sent.token}/submit`, { values: ['x'] })).body.fields).toMatchObject({ values: 'must be an object of field values' });
    const wrongTypes = await person('POST', `/onboarding/${sent.token}/submit`, { values: { ...VALID_VALUES, firstName: 5, lastName: 'Line\nBreak', nationality: null } });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.fields).toMatchObject({
      firstName: expect.stringContaining('expected string'), lastName: 'must not contain control characters', nationality: 'is required',
    });
    const view = await rest('GET', `/v1/consumer-cases/onboarding/${sent.token}`);
    expect(view.body).toMatchObject({ state: 'INVITED', consumerCase: { status: 'INVITED', dateOfBirth: null }, documents: [{ file: null }] });
  });

  it('asks for a proof of address when requested, and records it as a document of the case', async () => {
    const sent = await invite({ fullName: 'Paula Address', email: uniqueEmail('poa'), requestProofOfAddress: true });
    const form = await person('GET', `/onboarding/${sent.token}/form`);
    expect(form.body.documents.map((d: { kind: string }) => d.kind)).toEqual(['IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS']);
    expect((await uploadDocument(sent.token, 'IDENTITY_DOCUMENT', png(), '?documentType=ID_CARD', 'id.png')).status).toBe(200);
    const missing = await person('POST', `/onboarding/${sent.token}/submit`, { values: { ...VALID_VALUES, firstName: 'Paula', lastName: 'Address' } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ 'documents.PROOF_OF_ADDRESS': 'is required' });
    // A document type belongs to identity documents only.
    expect((await uploadDocument(sent.token, 'PROOF_OF_ADDRESS', png(), '?documentType=PASSPORT', 'bill.png')).status).toBe(400);
    const bill = await uploadDocument(sent.token, 'PROOF_OF_ADDRESS', png(2048), '', 'utility-bill.png');
    expect(bill).toMatchObject({ status: 200, body: { kind: 'PROOF_OF_ADDRESS', file: { fileName: 'utility-bill.png' } } });
    const submitted = await person('POST', `/onboarding/${sent.token}/submit`, { values: { ...VALID_VALUES, firstName: 'Paula', lastName: 'Address' } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const documents = await rest('GET', `/v1/documents?consumerCaseId=${sent.consumerCaseId}`);
    expect(documents.body.items.map((d: { type: string; fileName: string }) => [d.type, d.fileName]).sort()).toEqual([
      ['ID_CARD', 'id.png'], ['PROOF_OF_ADDRESS', 'utility-bill.png'],
    ]);
    const task = await rest('GET', `/v1/tasks?consumerCaseId=${sent.consumerCaseId}`);
    expect(task.body.items[0].description).toContain('Documents: ID_CARD, PROOF_OF_ADDRESS.');
  });

  it('closes the link of an archived case', async () => {
    const sent = await invite({ fullName: 'Archived Case', email: uniqueEmail('archived') });
    expect((await rest('PATCH', `/v1/consumer-cases/${sent.consumerCaseId}`, { status: 'ARCHIVED' })).status).toBe(200);
    const page = await fetch(`${service.url}/onboarding/${sent.token}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This link is no longer needed');
  });

  it('keeps exactly one file when uploads race, and never one that was replaced', async () => {
    const sent = await invite({ fullName: 'Racing Uploads', email: uniqueEmail('race') });
    const names = ['race-1.png', 'race-2.png', 'race-3.png'];
    const results = await Promise.all(names.map((name) => uploadDocument(sent.token, 'IDENTITY_DOCUMENT', png(), '', name)));
    expect(results.every((result) => result.status === 200 || result.status === 409)).toBe(true);
    expect(results.some((result) => result.status === 200)).toBe(true);
    const kept = await service.db.storedFile.findMany({ where: { organizationId: org.id, fileName: { in: names } } });
    expect(kept).toHaveLength(1);
    const invitation = await service.db.onboardingInvitation.findFirstOrThrow({ where: { consumerCaseId: sent.consumerCaseId } });
    expect(invitation.identityFileId).toBe(kept[0]!.id);
  });

  it('runs checks whose job was lost, from the sweep', async () => {
    const sent = await invite({ fullName: 'Lost Job', email: uniqueEmail('lost') });
    // As if the process died between the submission's commit and sending its job.
    await service.db.onboardingInvitation.updateMany({ where: { consumerCaseId: sent.consumerCaseId }, data: { submittedAt: new Date(Date.now() - 5 * 60_000) } });
    expect(await queueDueChecks(service.queue, service.db, new Date(Date.now() - 2 * 60_000))).toBeGreaterThanOrEqual(1);
    const done = await waitFor(() => service.db.onboardingInvitation.findFirst({ where: { consumerCaseId: sent.consumerCaseId, checksCompletedAt: { not: null } } }), 'the swept checks');
    expect(done.checksCompletedAt).not.toBeNull();
    const notes = await rest('GET', `/v1/notes?consumerCaseId=${sent.consumerCaseId}`);
    expect(notes.body.items.map((note: { author: string }) => note.author)).toEqual(['Onboarding checks']);
  });

  it('lets only one of two simultaneous submissions through', async () => {
    const sent = await invite({ fullName: 'Double Click', email: uniqueEmail('double') });
    expect((await uploadDocument(sent.token, 'IDENTITY_DOCUMENT', png())).status).toBe(200);
    const values = { ...VALID_VALUES, firstName: 'Double', lastName: 'Click' };
    const results = await Promise.all([1, 2, 3].map(() => person('POST', `/onboarding/${sent.token}/submit`, { values })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410]);
    expect((await rest('GET', `/v1/documents?consumerCaseId=${sent.consumerCaseId}`)).body.items).toHaveLength(1);
    expect((await rest('GET', `/v1/tasks?consumerCaseId=${sent.consumerCaseId}`)).body.items).toHaveLength(1);
  });
});

describe('logs', () => {
  it('never contain a token: request lines show /onboarding/[token]', async () => {
    const sent = await invite({ fullName: 'Logged Person', email: uniqueEmail('logs') });
    const encoded = [...sent.token].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    for (const path of [`/onboarding/${sent.token}`, `/onboarding/${sent.token}/form`, `/onboarding/${encoded}/form`]) {
      expect((await fetch(`${service.url}${path}`)).status).toBe(200);
    }
    expect((await person('PUT', `/onboarding/${sent.token}/draft`, { values: { firstName: 'Logged' } })).status).toBe(200);
    expect((await person('POST', `/onboarding/${sent.token}/submit`, { values: { firstName: 'x' } })).status).toBe(400);
    expect((await rest('GET', `/v1/consumer-cases/onboarding/${sent.token}`)).status).toBe(200);
    const requestLines = logLines.filter((line) => line.includes('"msg":"request"') && line.includes('/onboarding/'));
    expect(requestLines.filter((line) => line.includes('/onboarding/[token]')).length).toBeGreaterThanOrEqual(6);
    for (const token of issuedTokens) {
      expect(logLines.some((line) => line.includes(token))).toBe(false);
    }
    expect(logLines.some((line) => line.includes(encoded))).toBe(false);
  });
});
