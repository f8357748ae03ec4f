import { z } from 'zod';
import { builder } from '../builder.ts';
import * as rules from '../domain/validation.ts';
import { notFound } from '../errors.ts';
import { OnboardingDocumentKind } from '../generated/prisma/enums.ts';
import { formView, INVITATION_WITH_CASE, type FormDocumentView, type FormFieldView } from '../onboarding/form-view.ts';
import { onboardingState } from '../onboarding/invitation-state.ts';
import { hashOnboardingToken, isOnboardingTokenShape } from '../onboarding/token.ts';
import { DocumentTypeEnum } from './document.ts';
import { SHOWN_ONCE } from './shown-once.ts';
import { costs, EMAIL } from './cost.ts';

const OnboardingStateEnum = builder.enumType('OnboardingState', {
  description: 'INVITED: email sent; OPENED: the person loaded the form; SUBMITTED: done (the link is closed); EXPIRED: not submitted in time; REVOKED: replaced by a newer invitation of the same case.',
  values: ['INVITED', 'OPENED', 'SUBMITTED', 'EXPIRED', 'REVOKED'] as const,
});

const OnboardingDocumentKindEnum = builder.enumType(OnboardingDocumentKind, { name: 'OnboardingDocumentKind' });

const OnboardingField = builder.objectRef<FormFieldView>('OnboardingField').implement({
  description: 'A field of the onboarding form and its current value (what the person entered so far, else the case\'s value).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Flat name; address parts are address.<part>.' }),
    label: t.exposeString('label'),
    type: t.exposeString('type', { description: 'text, date (YYYY-MM-DD), tel or country (ISO 3166-1 alpha-2).' }),
    required: t.exposeBoolean('required'),
    value: t.exposeString('value', { nullable: true }),
  }),
});

const OnboardingUpload = builder.objectRef<NonNullable<FormDocumentView['file']>>('OnboardingUpload').implement({
  fields: (t) => ({
    fileName: t.exposeString('fileName'),
    size: t.exposeInt('size'),
    contentType: t.exposeString('contentType'),
  }),
});

const OnboardingRequestedDocument = builder.objectRef<FormDocumentView>('OnboardingRequestedDocument').implement({
  description: 'A document the form asks for, and the file uploaded for it so far.',
  fields: (t) => ({
    kind: t.expose('kind', { type: OnboardingDocumentKindEnum }),
    label: t.exposeString('label'),
    required: t.exposeBoolean('required'),
    documentType: t.expose('documentType', { type: DocumentTypeEnum, nullable: true, description: 'For the identity document: the kind the person chose.' }),
    file: t.expose('file', { type: OnboardingUpload, nullable: true }),
  }),
});

const OnboardingBranding = builder.objectRef<{ companyName: string }>('OnboardingBranding').implement({
  fields: (t) => ({ companyName: t.exposeString('companyName', { description: 'Shown in the email and on the page.' }) }),
});

export const ConsumerOnboarding = builder.prismaObject('OnboardingInvitation', {
  name: 'ConsumerOnboarding',
  description: 'An onboarding invitation of a consumer case: the form it links to, its state and its branding. The token itself is never stored.',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email', { description: 'Where the invitation was sent.' }),
    fullName: t.exposeString('fullName', { description: 'The name the invitation was addressed to.' }),
    fromAddress: t.exposeString('fromAddress'),
    invitedBy: t.exposeString('invitedBy'),
    consumerCase: t.relation('consumerCase'),
    state: t.field({
      type: OnboardingStateEnum,
      select: { expiresAt: true, openedAt: true, submittedAt: true, revokedAt: true },
      resolve: (row) => onboardingState(row),
    }),
    invitedAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    openedAt: t.expose('openedAt', { type: 'DateTime', nullable: true }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', nullable: true }),
    branding: t.field({ type: OnboardingBranding, select: { senderCompanyName: true }, resolve: (row) => ({ companyName: row.senderCompanyName }) }),
    fields: t.field({ type: [OnboardingField], select: INVITATION_WITH_CASE, resolve: (row) => formView(row).fields }),
    documents: t.field({ type: [OnboardingRequestedDocument], select: INVITATION_WITH_CASE, resolve: (row) => formView(row).documents }),
  }),
});

builder.queryFields((t) => ({
  consumerOnboarding: t.prismaField({
    type: ConsumerOnboarding,
    description: 'The onboarding form behind a token your organization sent: case, fields and values, documents, state, expiry and branding. NOT_FOUND for unknown tokens and tokens of other organizations. Reading it does not mark the form opened.',
    authScopes: { permission: 'consumer_cases:read' },
    args: { token: t.arg.string({ required: true }) },
    resolve: async (query, _root, { token }, { db }) => {
      const row = isOnboardingTokenShape(token) ? await db.onboardingInvitation.findUnique({ ...query, where: { tokenHash: hashOnboardingToken(token) } }) : null;
      if (!row) throw notFound('Onboarding invitation not found');
      return row;
    },
  }),
}));

// Names and the company go into mail headers and the page: one line, printable.
const oneLine = (max: number) => rules.oneLine(rules.shortText(max));

const SendOnboardingEmailInput = builder.inputType('SendOnboardingEmailInput', {
  validate: z.object({
    fullName: oneLine(200),
    email: rules.email,
    from: rules.email.nullish(),
    senderCompanyName: oneLine(100).nullish(),
    requestProofOfAddress: z.boolean().nullish(),
    expiresInHours: z.number().int('must be a whole number').min(1, 'must be between 1 and 2160').max(2160, 'must be between 1 and 2160').nullish(),
    userId: rules.userId.nullish(),
  }),
  fields: (t) => ({
    fullName: t.string({ required: true, description: 'How the email addresses the person; also pre-fills the case\'s names.' }),
    email: t.string({ required: true, description: 'The person\'s address. An open case of your organization with this email is reused, else a case is created.' }),
    from: t.string({ description: 'Sender address; default: the configured MAIL_FROM.' }),
    senderCompanyName: t.string({ description: 'Company name in the email and on the page; default: ONBOARDING_SENDER_COMPANY_NAME, else your organization\'s name.' }),
    requestProofOfAddress: t.boolean({ description: 'Also ask for a proof of address. Default false.' }),
    expiresInHours: t.int({ description: 'How long the link works; default ONBOARDING_TOKEN_TTL_HOURS (168 = 7 days).' }),
    userId: t.string({ description: 'Your team member who sends it (recorded as invitedBy); default: the API key\'s name.' }),
  }),
});

const SendOnboardingEmailResult = builder
  .objectRef<{ token: string; invitationId: string; consumerCaseId: string; expiresAt: Date; linkedExistingCase: boolean }>('SendOnboardingEmailResult')
  .implement({
    fields: (t) => ({
      success: t.boolean({ resolve: () => true }),
      token: t.exposeString('token', {
        nullable: true,
        extensions: SHOWN_ONCE,
        description: 'The link\'s token, shown once (only its hash is stored). The link is <PUBLIC_BASE_URL>/onboarding/<token>. null in an idempotent replay: the emailed link still works.',
      }),
      consumerCaseId: t.exposeID('consumerCaseId'),
      linkedExistingCase: t.exposeBoolean('linkedExistingCase', { description: 'true: an existing case with this email was reused.' }),
      expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
      onboarding: t.prismaField({
        type: ConsumerOnboarding,
        resolve: (query, parent, _args, { db }) => db.onboardingInvitation.findUniqueOrThrow({ ...query, where: { id: parent.invitationId } }),
      }),
    }),
  });

builder.mutationFields((t) => ({
  sendOnboardingEmail: t.field({
    type: SendOnboardingEmailResult,
    description: 'Emails a person a link to the onboarding page and puts their consumer case (created, or found by email) in INVITED. Earlier open links of that case stop working. When the mail server refuses, the answer is BAD_GATEWAY (502) and nothing is created.',
    authScopes: { permission: 'consumer_cases:write' },
    extensions: costs(EMAIL),
    args: { input: t.arg({ type: SendOnboardingEmailInput, required: true }) },
    resolve: (_root, { input }, { apiKey, onboarding }) => onboarding.invite(apiKey.organizationId, input, input.userId ?? apiKey.name),
  }),
}));
