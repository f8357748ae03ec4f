import { BusinessCaseStatus } from '../generated/prisma/enums.ts';
import { assertTransition } from './lifecycle.ts';

type Status = BusinessCaseStatus;

/**
 * The KYB case lifecycle. A decision (APPROVED, REJECTED) needs a review
 * first; decisions can be re-opened for review; ARCHIVED is final.
 */
export const BUSINESS_CASE_TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
  PENDING: ['IN_REVIEW', 'ARCHIVED'],
  IN_REVIEW: ['PENDING', 'APPROVED', 'REJECTED', 'ARCHIVED'],
  APPROVED: ['IN_REVIEW', 'ARCHIVED'],
  REJECTED: ['IN_REVIEW', 'ARCHIVED'],
  ARCHIVED: [],
};

export function assertBusinessCaseTransition(from: Status, to: Status): void {
  assertTransition(BUSINESS_CASE_TRANSITIONS, from, to);
}
