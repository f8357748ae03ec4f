import { invalidInput } from '../errors.ts';
import { ConsumerCaseStatus } from '../generated/prisma/enums.ts';

type Status = ConsumerCaseStatus;

/**
 * The KYC case lifecycle. New cases start PENDING; ACTIVE means the person is
 * engaged (documents being collected); IN_REVIEW is the analyst's queue;
 * VERIFIED and REJECTED are decisions that can be re-opened for review;
 * ARCHIVED is final.
 */
export const CONSUMER_CASE_TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
  PENDING: ['ACTIVE', 'IN_REVIEW', 'REJECTED', 'ARCHIVED'],
  ACTIVE: ['IN_REVIEW', 'VERIFIED', 'REJECTED', 'ARCHIVED'],
  IN_REVIEW: ['ACTIVE', 'VERIFIED', 'REJECTED', 'ARCHIVED'],
  VERIFIED: ['IN_REVIEW', 'ARCHIVED'],
  REJECTED: ['IN_REVIEW', 'ARCHIVED'],
  ARCHIVED: [],
};

/** Throws a 400 naming the allowed targets unless `from → to` is allowed (staying put is). */
export function assertConsumerCaseTransition(from: Status, to: Status): void {
  if (from === to || CONSUMER_CASE_TRANSITIONS[from].includes(to)) return;
  const allowed = CONSUMER_CASE_TRANSITIONS[from];
  throw invalidInput(
    `status: cannot change from ${from} to ${to}; allowed from ${from}: ${allowed.length ? allowed.join(', ') : 'none (final state)'}`,
  );
}
