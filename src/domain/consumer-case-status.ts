import { assertTransition } from './lifecycle.ts';
import { ConsumerCaseStatus } from '../generated/prisma/enums.ts';

type Status = ConsumerCaseStatus;

/**
 * The KYC case lifecycle. New cases start PENDING; INVITED means an onboarding
 * email went out and the person has not submitted yet; ACTIVE means the person is
 * engaged (documents being collected); IN_REVIEW is the analyst's queue;
 * VERIFIED and REJECTED are decisions that can be re-opened for review;
 * ARCHIVED is final.
 */
export const CONSUMER_CASE_TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
  PENDING: ['INVITED', 'ACTIVE', 'IN_REVIEW', 'REJECTED', 'ARCHIVED'],
  INVITED: ['PENDING', 'ACTIVE', 'IN_REVIEW', 'REJECTED', 'ARCHIVED'],
  ACTIVE: ['IN_REVIEW', 'VERIFIED', 'REJECTED', 'ARCHIVED'],
  IN_REVIEW: ['ACTIVE', 'VERIFIED', 'REJECTED', 'ARCHIVED'],
  VERIFIED: ['IN_REVIEW', 'ARCHIVED'],
  REJECTED: ['IN_REVIEW', 'ARCHIVED'],
  ARCHIVED: [],
};

export function assertConsumerCaseTransition(from: Status, to: Status): void {
  assertTransition(CONSUMER_CASE_TRANSITIONS, from, to);
}
