import countries from 'i18n-iso-countries';
import type { DocumentType, OnboardingDocumentKind } from '../generated/prisma/enums.ts';
import { type CaseValues, currentValues, ONBOARDING_FIELDS, type OnboardingField } from './form-fields.ts';
import { onboardingState, type InvitationTimes, type OnboardingState } from './invitation-state.ts';

export const DOCUMENT_LABELS: Record<OnboardingDocumentKind, string> = {
  IDENTITY_DOCUMENT: 'Identity document',
  PROOF_OF_ADDRESS: 'Proof of address',
};

/** The identity documents a person may upload, and the document type each is recorded as. */
export const IDENTITY_DOCUMENT_TYPES = ['PASSPORT', 'ID_CARD', 'DRIVERS_LICENSE'] as const satisfies readonly DocumentType[];

interface UploadedFile {
  fileName: string;
  size: number;
  contentType: string;
}

/** An invitation row with what the form shows of its case and uploads. */
export interface InvitationWithCase extends InvitationTimes {
  id: string;
  organizationId: string;
  consumerCaseId: string;
  fullName: string;
  senderCompanyName: string;
  requestedDocuments: OnboardingDocumentKind[];
  draft: unknown;
  identityDocumentType: DocumentType | null;
  identityFile: (UploadedFile & { id: string; key: string }) | null;
  proofOfAddressFile: (UploadedFile & { id: string; key: string }) | null;
  consumerCase: CaseValues & { status: string };
}

/** The Prisma `select` that loads an InvitationWithCase. */
export const INVITATION_WITH_CASE = {
  id: true, organizationId: true, consumerCaseId: true, fullName: true, senderCompanyName: true, requestedDocuments: true,
  draft: true, identityDocumentType: true, expiresAt: true, openedAt: true, submittedAt: true, revokedAt: true,
  identityFile: { select: { id: true, key: true, fileName: true, size: true, contentType: true } },
  proofOfAddressFile: { select: { id: true, key: true, fileName: true, size: true, contentType: true } },
  consumerCase: { select: { status: true, firstName: true, lastName: true, dateOfBirth: true, phoneNumber: true, nationality: true, address: true } },
} as const;

export interface FormFieldView extends OnboardingField {
  value: string | null;
}

export interface FormDocumentView {
  kind: OnboardingDocumentKind;
  label: string;
  required: boolean;
  documentType: DocumentType | null;
  file: UploadedFile | null;
}

export interface FormView {
  state: OnboardingState;
  expiresAt: Date;
  submittedAt: Date | null;
  branding: { companyName: string };
  invitedName: string;
  fields: FormFieldView[];
  documents: FormDocumentView[];
}

const publicFile = (file: UploadedFile | null): UploadedFile | null =>
  file && { fileName: file.fileName, size: file.size, contentType: file.contentType };

/** The form as both the team (API) and the person (page) see it: requested fields with values, documents, state. */
export function formView(invitation: InvitationWithCase, now = new Date()): FormView {
  const values = currentValues(invitation.consumerCase, invitation.draft);
  return {
    state: onboardingState(invitation, now),
    expiresAt: invitation.expiresAt,
    submittedAt: invitation.submittedAt,
    branding: { companyName: invitation.senderCompanyName },
    invitedName: invitation.fullName,
    fields: ONBOARDING_FIELDS.map((field) => ({ ...field, value: values[field.name] ?? null })),
    documents: invitation.requestedDocuments.map((kind) => ({
      kind,
      label: DOCUMENT_LABELS[kind],
      required: true,
      documentType: kind === 'IDENTITY_DOCUMENT' ? invitation.identityDocumentType : null,
      file: publicFile(kind === 'IDENTITY_DOCUMENT' ? invitation.identityFile : invitation.proofOfAddressFile),
    })),
  };
}

let choices: ReadonlyArray<{ code: string; name: string }> | undefined;

/** Country choices for the page's selects, by English name (built once: every form load sends them). */
export function countryChoices(): ReadonlyArray<{ code: string; name: string }> {
  choices ??= Object.entries(countries.getNames('en', { select: 'official' }))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return choices;
}
