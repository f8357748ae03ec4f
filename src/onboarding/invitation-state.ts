/** Where an onboarding invitation stands, as the team and the person see it. */
export type OnboardingState = 'INVITED' | 'OPENED' | 'SUBMITTED' | 'EXPIRED' | 'REVOKED';

export interface InvitationTimes {
  expiresAt: Date;
  openedAt: Date | null;
  submittedAt: Date | null;
  revokedAt: Date | null;
}

/** A submitted invitation stays SUBMITTED after its expiry; a replaced one is REVOKED. */
export function onboardingState(invitation: InvitationTimes, now = new Date()): OnboardingState {
  if (invitation.submittedAt) return 'SUBMITTED';
  if (invitation.revokedAt) return 'REVOKED';
  if (invitation.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return invitation.openedAt ? 'OPENED' : 'INVITED';
}

/** What the person is told when their link can no longer be used (410). */
export const CLOSED_MESSAGES: Record<'SUBMITTED' | 'EXPIRED' | 'REVOKED' | 'CASE_CLOSED', { title: string; message: string }> = {
  SUBMITTED: {
    title: 'Already submitted',
    message: 'Your details have already been submitted with this link. Thank you; there is nothing more to do here.',
  },
  EXPIRED: {
    title: 'This link has expired',
    message: 'For your security, onboarding links expire. Please ask the company that sent it for a new one.',
  },
  REVOKED: {
    title: 'This link was replaced',
    message: 'A newer onboarding link was sent to you. Please use the link in the most recent email.',
  },
  CASE_CLOSED: {
    title: 'This link is no longer needed',
    message: 'The company that sent this link has closed your case, so there is nothing to fill in. Please contact them if you think this is wrong.',
  },
};

export const UNKNOWN_LINK = {
  title: 'Link not found',
  message: 'This onboarding link is not valid. Please check that you opened the whole link from the email, or ask for a new one.',
};
