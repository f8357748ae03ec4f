import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { inTenantTransaction } from '../db/tenant-transaction.ts';
import { forOrganization } from '../db/tenant.ts';
import { currentRequestId } from '../http/request-scope.ts';
import { CONSUMER_CASE_TRANSITIONS } from '../domain/consumer-case-status.ts';
import { AppError, badRequest, conflict, InvalidFieldsError, invalidInput, notFound } from '../errors.ts';
import type { FileService, FileUpload } from '../files/file-service.ts';
import { Prisma } from '../generated/prisma/client.ts';
import type { DocumentType, OnboardingDocumentKind } from '../generated/prisma/enums.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Mailer } from '../mail/mailer.ts';
import { DraftValues, parseSubmission, splitFullName } from './form-fields.ts';
import { countryChoices, formView, IDENTITY_DOCUMENT_TYPES, INVITATION_WITH_CASE, type InvitationWithCase } from './form-view.ts';
import { invitationEmail } from './invitation-email.ts';
import { CLOSED_MESSAGES, onboardingState, UNKNOWN_LINK } from './invitation-state.ts';
import { ONBOARDING_JOB_OPTIONS, ONBOARDING_QUEUE, type OnboardingJob } from './after-submission.ts';
import { generateOnboardingToken, hashOnboardingToken, isOnboardingTokenShape } from './token.ts';
import { issuesByField } from '../domain/validation.ts';

export interface OnboardingServiceOptions {
  db: Database;
  mailer: Mailer;
  files: FileService;
  logger: Logger;
  /** Base address of the links in emails. */
  publicBaseUrl: () => string;
  tokenTtlHours: number;
  defaultFrom: string;
  /** Domains a request's `from` may use; null: any. */
  allowedFromDomains: string[] | null;
  /** Unset: the organization's name. */
  defaultCompanyName?: string;
}

export interface InvitationRequest {
  fullName: string;
  email: string;
  from?: string | null;
  senderCompanyName?: string | null;
  requestProofOfAddress?: boolean | null;
  expiresInHours?: number | null;
}

/** A person's link can no longer be used (410), or never existed (404). */
export class ClosedLinkError extends AppError {
  readonly title: string;
  constructor(kind: 'UNKNOWN' | keyof typeof CLOSED_MESSAGES) {
    const text = kind === 'UNKNOWN' ? UNKNOWN_LINK : CLOSED_MESSAGES[kind];
    super(kind === 'UNKNOWN' ? 'NOT_FOUND' : 'GONE', text.message);
    this.title = text.title;
  }
}

/** The person on the onboarding page, as the audit trail names them. */
const personActor = () => ({ actor: 'onboarding page', requestId: currentRequestId() });

// Statuses from which a submission moves the case to the analysts' queue.
const canMoveToReview = (status: string) =>
  status === 'IN_REVIEW' || (CONSUMER_CASE_TRANSITIONS[status as keyof typeof CONSUMER_CASE_TRANSITIONS] ?? []).includes('IN_REVIEW');

/**
 * Invitations (the team's side, API key) and the onboarding page's actions
 * (the person's side, token). A token is looked up by its hash and then only
 * ever acts on its own invitation, case and organization.
 */
export class OnboardingService {
  private queue: JobQueue | undefined;

  constructor(private readonly options: OnboardingServiceOptions) {}

  attach(queue: JobQueue) {
    this.queue = queue;
  }

  linkFor(token: string): string {
    return `${this.options.publicBaseUrl()}/onboarding/${token}`;
  }

  /**
   * Creates (or reuses, by email) the consumer case, replaces any open link of
   * that case, and sends the email, all in one transaction: when the mail
   * server refuses, nothing is left behind.
   */
  async invite(organizationId: string, request: InvitationRequest, invitedBy: string) {
    const { db, mailer, logger } = this.options;
    const organization = await db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } });
    const companyName = request.senderCompanyName ?? this.options.defaultCompanyName ?? organization.name;
    const from = request.from ?? this.options.defaultFrom;
    const allowed = this.options.allowedFromDomains;
    const domain = from.slice(from.lastIndexOf('@') + 1).toLowerCase();
    if (request.from && allowed && !allowed.includes(domain)) {
      throw invalidInput(`from: ${domain} is not an allowed sender domain; allowed: ${allowed.join(', ')}`);
    }
    const token = generateOnboardingToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (request.expiresInHours ?? this.options.tokenTtlHours) * 3_600_000);
    const link = this.linkFor(token);
    return inTenantTransaction(
      db,
      organizationId,
      async (tx) => {
        // Two invitations for the same new address at once must not open two cases.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`${organizationId}/${request.email}`}))`;
        const existing = await tx.consumerCase.findFirst({
          where: { organizationId, email: request.email, status: { not: 'ARCHIVED' } },
          orderBy: { createdAt: 'desc' },
          select: { id: true, status: true },
        });
        const consumerCaseId = existing
          ? existing.id
          : (await tx.consumerCase.create({
              data: { organizationId, email: request.email, ...splitFullName(request.fullName), status: 'INVITED' },
              select: { id: true },
            })).id;
        if (existing?.status === 'PENDING') {
          await tx.consumerCase.update({ where: { id: existing.id }, data: { status: 'INVITED' } });
        }
        // One working link per case: the newest.
        await tx.onboardingInvitation.updateMany({
          where: { consumerCaseId, submittedAt: null, revokedAt: null },
          data: { revokedAt: now },
        });
        const invitation = await tx.onboardingInvitation.create({
          data: {
            organizationId, consumerCaseId, tokenHash: hashOnboardingToken(token), email: request.email,
            fullName: request.fullName, fromAddress: from, senderCompanyName: companyName,
            requestedDocuments: request.requestProofOfAddress ? ['IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS'] : ['IDENTITY_DOCUMENT'],
            expiresAt, invitedBy,
          },
          select: { id: true, expiresAt: true },
        });
        const sent = await mailer.send({
          to: request.email,
          from: { address: from, name: companyName },
          envelopeFrom: this.options.defaultFrom,
          ...invitationEmail({ fullName: request.fullName, companyName, link, expiresAt }),
        });
        await tx.onboardingInvitation.update({ where: { id: invitation.id }, data: { messageId: sent.messageId } });
        // Without a mail server the link would otherwise be unreachable.
        if (mailer.kind === 'outbox') logger.info({ to: request.email, link, file: sent.file }, 'onboarding link (local outbox)');
        return { token, invitationId: invitation.id, consumerCaseId, expiresAt: invitation.expiresAt, linkedExistingCase: Boolean(existing) };
      },
      // The mail server's own timeouts bound this (src/mail/mailer.ts).
      { timeoutMs: 60_000, who: { actor: invitedBy, requestId: currentRequestId() } },
    );
  }

  /** The invitation of a token in any state; 404 when there is none. */
  private async find(token: string): Promise<InvitationWithCase> {
    const invitation = isOnboardingTokenShape(token)
      ? await this.options.db.onboardingInvitation.findUnique({ where: { tokenHash: hashOnboardingToken(token) }, select: INVITATION_WITH_CASE })
      : null;
    if (!invitation) throw new ClosedLinkError('UNKNOWN');
    return invitation;
  }

  /** The invitation of a token that can still be used; 404/410 otherwise (an archived case closes its link). */
  async usable(token: string): Promise<InvitationWithCase> {
    const invitation = await this.find(token);
    const state = onboardingState(invitation);
    if (state === 'SUBMITTED' || state === 'EXPIRED' || state === 'REVOKED') throw new ClosedLinkError(state);
    if (invitation.consumerCase.status === 'ARCHIVED') throw new ClosedLinkError('CASE_CLOSED');
    return invitation;
  }

  /** The page's form; the first load marks the invitation OPENED (the page's script loads it, link scanners do not). */
  async open(token: string) {
    const invitation = await this.usable(token);
    if (!invitation.openedAt) {
      const db = forOrganization(this.options.db, invitation.organizationId, personActor());
      const { openedAt } = await db.onboardingInvitation.update({ where: { id: invitation.id }, data: { openedAt: new Date() }, select: { openedAt: true } });
      invitation.openedAt = openedAt;
    }
    return { ...formView(invitation), countries: countryChoices() };
  }

  async saveDraft(token: string, values: unknown) {
    const invitation = await this.usable(token);
    if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new InvalidFieldsError({ values: 'must be an object of field values' });
    const parsed = DraftValues.safeParse(values);
    if (!parsed.success) throw new InvalidFieldsError(issuesByField(parsed.error.issues));
    const db = forOrganization(this.options.db, invitation.organizationId, personActor());
    await db.onboardingInvitation.updateMany({ where: { id: invitation.id, submittedAt: null }, data: { draft: parsed.data } });
    return { saved: true };
  }

  /** What an upload may be, checked before any byte of it is read: a kind the form asks for, and an identity document type. */
  async uploadTarget(token: string, kind: string, documentType: string | undefined) {
    const invitation = await this.usable(token);
    if (!invitation.requestedDocuments.includes(kind as OnboardingDocumentKind)) {
      throw notFound(`This form does not ask for a document of kind ${kind}`);
    }
    let identityType: DocumentType | undefined;
    if (kind === 'IDENTITY_DOCUMENT') {
      identityType = (documentType ?? 'PASSPORT') as DocumentType;
      if (!(IDENTITY_DOCUMENT_TYPES as readonly string[]).includes(identityType)) {
        throw badRequest(`documentType: must be one of ${IDENTITY_DOCUMENT_TYPES.join(', ')}`);
      }
    } else if (documentType !== undefined) {
      throw badRequest('documentType: only identity documents have a type');
    }
    return { invitation, kind: kind as OnboardingDocumentKind, identityType };
  }

  /**
   * Stores a document privately and keeps it for the submission; a second
   * upload of the same kind replaces the first. The replacement only lands if
   * nothing changed since the invitation was read (no other upload, no
   * submission), so a file is never both replaced and submitted; the loser's
   * file is deleted and it answers 409.
   */
  async upload(token: string, target: Awaited<ReturnType<OnboardingService['uploadTarget']>>, upload: Promise<FileUpload>) {
    const { invitation, kind, identityType } = target;
    const { organizationId } = invitation;
    const db = forOrganization(this.options.db, organizationId, personActor());
    const stored = await this.options.files.upload(db, organizationId, 'PRIVATE', upload);
    const identity = kind === 'IDENTITY_DOCUMENT';
    const previous = identity ? invitation.identityFile : invitation.proofOfAddressFile;
    const { count } = await db.onboardingInvitation.updateMany({
      where: {
        id: invitation.id, submittedAt: null, revokedAt: null,
        ...(identity ? { identityFileId: previous?.id ?? null } : { proofOfAddressFileId: previous?.id ?? null }),
      },
      data: identity ? { identityFileId: stored.id, identityDocumentType: identityType } : { proofOfAddressFileId: stored.id },
    });
    const discard = count ? previous : stored;
    if (discard) await this.options.files.delete(db, organizationId, discard.key).catch((error) => this.options.logger.warn({ err: error }, 'could not delete a replaced onboarding upload'));
    if (!count) {
      await this.usable(token);
      throw conflict('Another upload or the submission changed this form at the same time; please try again');
    }
    return { kind, documentType: identityType ?? null, file: { fileName: stored.fileName, size: stored.size, contentType: stored.contentType } };
  }

  /**
   * Checks everything, then in one transaction updates the case, records the
   * documents, closes the link and opens the review task; the checks that
   * take time (identity analysis, screening) run after, from the job queue.
   * A rejected submission is kept as the draft, so nothing typed is lost.
   */
  async submit(token: string, values: unknown) {
    const invitation = await this.usable(token);
    const { organizationId } = invitation;
    const result = parseSubmission(values);
    const fields = 'fields' in result ? { ...result.fields } : {};
    for (const kind of invitation.requestedDocuments) {
      const file = kind === 'IDENTITY_DOCUMENT' ? invitation.identityFile : invitation.proofOfAddressFile;
      if (!file) fields[`documents.${kind}`] = 'is required';
    }
    if (Object.keys(fields).length || !('person' in result)) {
      const draft = DraftValues.safeParse(values);
      if (draft.success) await this.saveDraft(token, draft.data);
      throw new InvalidFieldsError(fields);
    }
    const person = result.person;
    const submittedAt = new Date();
    const taskId = await inTenantTransaction(this.options.db, organizationId, async (tx) => {
      const consumerCase = await tx.consumerCase.findUniqueOrThrow({ where: { id: invitation.consumerCaseId }, select: { status: true } });
      if (!canMoveToReview(consumerCase.status)) throw new ClosedLinkError('CASE_CLOSED');
      // Only one submission per link, and only of the files checked above: an
      // upload that replaced one meanwhile makes this a 409 (try again).
      const { count } = await tx.onboardingInvitation.updateMany({
        where: {
          id: invitation.id, submittedAt: null, revokedAt: null, expiresAt: { gt: submittedAt },
          identityFileId: invitation.identityFile?.id ?? null, proofOfAddressFileId: invitation.proofOfAddressFile?.id ?? null,
        },
        data: { submittedAt, draft: Prisma.DbNull },
      });
      if (!count) {
        const now = await tx.onboardingInvitation.findUniqueOrThrow({ where: { id: invitation.id }, select: { submittedAt: true, revokedAt: true, expiresAt: true } });
        if (now.submittedAt) throw new ClosedLinkError('SUBMITTED');
        if (now.revokedAt) throw new ClosedLinkError('REVOKED');
        if (now.expiresAt <= submittedAt) throw new ClosedLinkError('EXPIRED');
        throw conflict('A document was replaced while submitting; please submit again');
      }
      await tx.consumerCase.update({ where: { id: invitation.consumerCaseId }, data: { ...person, status: 'IN_REVIEW' } });
      const documents: Array<{ fileId: string; type: DocumentType }> = [];
      if (invitation.identityFile) documents.push({ fileId: invitation.identityFile.id, type: invitation.identityDocumentType ?? 'PASSPORT' });
      if (invitation.proofOfAddressFile) documents.push({ fileId: invitation.proofOfAddressFile.id, type: 'PROOF_OF_ADDRESS' });
      await tx.document.createMany({
        data: documents.map((document) => ({ ...document, organizationId, consumerCaseId: invitation.consumerCaseId })),
      });
      const task = await tx.task.create({
        data: {
          organizationId,
          consumerCaseId: invitation.consumerCaseId,
          priority: 'HIGH',
          title: `Review onboarding submission of ${person.firstName} ${person.lastName}`,
          description: [
            `${person.firstName} ${person.lastName} completed the onboarding form on ${submittedAt.toISOString()}.`,
            `Documents: ${documents.map((document) => document.type).join(', ')}.`,
            'Identity document analysis and screening run automatically; their results appear on the case.',
          ].join('\n'),
        },
        select: { id: true },
      });
      return task.id;
    }, { who: personActor() });
    await this.afterSubmission({ organizationId, invitationId: invitation.id });
    return { state: 'SUBMITTED' as const, submittedAt, consumerCaseId: invitation.consumerCaseId, taskId };
  }

  /** Queued after commit; a job lost here is queued by the sweep (after-submission.ts). The job skips what is done, so a repeat is harmless. */
  private async afterSubmission(job: OnboardingJob) {
    if (!this.queue) return;
    try {
      await this.queue.send(ONBOARDING_QUEUE, job, { ...ONBOARDING_JOB_OPTIONS, singletonKey: job.invitationId });
    } catch (error) {
      this.options.logger.error({ err: error, ...job }, 'could not queue the checks of an onboarding submission; the sweep will');
    }
  }
}
