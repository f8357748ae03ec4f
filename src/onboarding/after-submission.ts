import type { Logger } from 'pino';
import type { AnalysisService } from '../analysis/analysis-service.ts';
import type { IdentityResult } from '../analysis/identity.ts';
import type { Database } from '../db/client.ts';
import { forOrganization, type TenantDatabase } from '../db/tenant.ts';
import { AppError } from '../errors.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import { assessCase } from '../risk/case-assessment.ts';
import type { ScreeningService } from '../screening/screening-service.ts';
import { consumerCaseSubject } from '../screening/subjects.ts';
import { compareIdentity } from './identity-comparison.ts';

export const ONBOARDING_QUEUE = 'onboarding-submitted';
/** Re-queues checks that are due but were never queued (a crash between the submission's commit and its job). */
const SWEEP_QUEUE = 'onboarding-checks-sweep';
const SWEEP_GRACE_MS = 2 * 60_000;
/** Who the automatic checks are recorded as (screenings, risk assessments, the summary note). */
export const ONBOARDING_ACTOR = 'Onboarding checks';

export interface OnboardingJob {
  organizationId: string;
  invitationId: string;
}

interface Dependencies {
  db: Database;
  analysis: AnalysisService;
  screening: ScreeningService;
  logger: Logger;
}

export const ONBOARDING_JOB_OPTIONS = { retryLimit: 3, retryDelay: 10, retryBackoff: true } as const;

/**
 * Registers the worker of the checks that follow a submission, and a sweep
 * every minute that queues checks still due after a grace period. The
 * submission commits before its job is sent, so this is what makes a job
 * lost in between (crash, queue error) run anyway.
 */
export async function attachOnboardingChecks(queue: JobQueue, dependencies: Dependencies) {
  await queue.createQueue(ONBOARDING_QUEUE);
  await queue.process<OnboardingJob>(ONBOARDING_QUEUE, { pollingIntervalSeconds: 0.5 }, async (job) => {
    await runOnboardingChecks(job.data, dependencies);
  });
  await scheduleJob(queue, SWEEP_QUEUE, '* * * * *', () => queueDueChecks(queue, dependencies.db, new Date(Date.now() - SWEEP_GRACE_MS)));
}

/** Queues the checks of submissions made before `submittedBefore` that have not completed. */
export async function queueDueChecks(queue: JobQueue, db: Database, submittedBefore: Date) {
  // Across organizations by design: only ids leave this query.
  const due = await db.onboardingInvitation.findMany({
    where: { submittedAt: { lt: submittedBefore }, checksCompletedAt: null },
    select: { id: true, organizationId: true },
    take: 100,
  });
  for (const invitation of due) {
    await queue.send(ONBOARDING_QUEUE, { organizationId: invitation.organizationId, invitationId: invitation.id } satisfies OnboardingJob, {
      ...ONBOARDING_JOB_OPTIONS, singletonKey: invitation.id,
    });
  }
  return due.length;
}

/**
 * Identity analysis of the ID document, screening of the person (then the
 * case's risk assessment), and a note on the case that sums both up. Each
 * step looks for its own earlier result first, so a retried job redoes only
 * what did not finish.
 */
export async function runOnboardingChecks({ organizationId, invitationId }: OnboardingJob, { db: rootDb, analysis, screening, logger }: Dependencies) {
  const db = forOrganization(rootDb, organizationId, { actor: ONBOARDING_ACTOR });
  const invitation = await db.onboardingInvitation.findUnique({
    where: { id: invitationId },
    select: { consumerCaseId: true, submittedAt: true, checksCompletedAt: true, identityFile: { select: { id: true, key: true } } },
  });
  if (!invitation?.submittedAt || invitation.checksCompletedAt) return;
  const { consumerCaseId, submittedAt } = invitation;
  const summary: string[] = [];

  if (invitation.identityFile) {
    const identity = await identityAnalysis(db, organizationId, invitation.identityFile, analysis, logger);
    summary.push(...describeIdentity(identity, await db.consumerCase.findUniqueOrThrow({ where: { id: consumerCaseId } })));
  }

  summary.push(await screenOnce(db, organizationId, consumerCaseId, submittedAt, screening, logger));

  const noted = await db.note.findFirst({ where: { consumerCaseId, author: ONBOARDING_ACTOR, createdAt: { gte: submittedAt } }, select: { id: true } });
  if (!noted) {
    await db.note.create({
      data: { organizationId, consumerCaseId, author: ONBOARDING_ACTOR, format: 'MARKDOWN', pinned: true, body: ['**Onboarding checks**', '', ...summary].join('\n') },
    });
  }
  await db.onboardingInvitation.update({ where: { id: invitationId }, data: { checksCompletedAt: new Date() } });
}

/** Text the person typed or the document showed, as literal Markdown: no links, emphasis or headings of theirs. */
export function literalMarkdown(text: string): string {
  // Mid-line, only these start Markdown or HTML constructs (links, images, emphasis, code, tags).
  return text.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()<>!|~]/g, (character) => `\\${character}`);
}

async function identityAnalysis(db: TenantDatabase, organizationId: string, file: { id: string; key: string }, analysis: AnalysisService, logger: Logger) {
  const earlier = await db.documentAnalysis.findFirst({
    where: { fileId: file.id, kind: 'IDENTITY', status: { in: ['SUCCEEDED', 'FAILED'] } },
    orderBy: { createdAt: 'desc' },
  });
  if (earlier) return earlier;
  try {
    return await analysis.analyzeNow(db, organizationId, file.key, 'IDENTITY');
  } catch (error) {
    // A document the engine cannot read is a finding, not a fault; it was recorded as FAILED.
    if (!(error instanceof AppError)) throw error;
    logger.info({ err: error, fileId: file.id }, 'identity analysis of an onboarding document failed');
    return db.documentAnalysis.findFirst({ where: { fileId: file.id, kind: 'IDENTITY' }, orderBy: { createdAt: 'desc' } });
  }
}

function describeIdentity(
  record: { id: string; status: string; error: string | null; result: unknown } | null,
  submitted: { firstName: string | null; lastName: string | null; dateOfBirth: Date | null },
): string[] {
  if (!record || record.status !== 'SUCCEEDED') {
    return [`- Identity document analysis ${record?.id ?? ''}: could not read the document${record?.error ? ` (${literalMarkdown(record.error)})` : ''}; check it by eye.`];
  }
  const identity = (record.result as { identity?: IdentityResult }).identity;
  if (!identity) return [`- Identity document analysis ${record.id}: no identity fields found; check it by eye.`];
  const lines = [`- Identity document analysis ${record.id}: ${identity.idType}, machine-readable zone ${identity.mrz.valid ? 'valid' : 'not valid or not found'}.`];
  for (const comparison of compareIdentity(submitted, identity)) {
    const verdict = comparison.outcome === 'MATCH' ? 'matches' : comparison.outcome === 'MISMATCH' ? '**does not match**' : 'not read from the document';
    lines.push(`  - ${comparison.field}: entered "${literalMarkdown(comparison.submitted ?? '')}", document "${literalMarkdown(comparison.onDocument ?? '')}": ${verdict}`);
  }
  return lines;
}

async function screenOnce(db: TenantDatabase, organizationId: string, consumerCaseId: string, submittedAt: Date, screening: ScreeningService, logger: Logger) {
  const earlier = await db.screening.findFirst({
    where: { consumerCaseId, trigger: 'ONBOARDING', createdAt: { gte: submittedAt } },
    select: { id: true, outcome: true, hitCount: true },
  });
  let result = earlier;
  if (!result) {
    try {
      const id = await screening.screen(db, await consumerCaseSubject(db, consumerCaseId), {
        organizationId, requestedBy: ONBOARDING_ACTOR, trigger: 'ONBOARDING',
      });
      result = await db.screening.findUniqueOrThrow({ where: { id }, select: { id: true, outcome: true, hitCount: true } });
    } catch (error) {
      // No list loaded (503): say so on the case rather than fail the job forever.
      if (!(error instanceof AppError)) throw error;
      logger.warn({ err: error, consumerCaseId }, 'onboarding screening not run');
      return `- Screening: not run (${literalMarkdown(error.message)}); screen the case once the watchlists are loaded.`;
    }
  }
  // Once per submission, also when the job is retried.
  const assessed = await db.riskAssessment.findFirst({
    where: { consumerCaseId, requestedBy: ONBOARDING_ACTOR, createdAt: { gte: submittedAt } },
    select: { id: true },
  });
  if (!assessed) await assessCase(db, organizationId, { consumerCaseId }, ONBOARDING_ACTOR);
  return `- Screening ${result.id}: ${result.outcome === 'NO_HITS' ? 'no hits' : `${result.hitCount} possible match(es), outcome ${result.outcome}; review them in the screening queue`}.`;
}
