/**
 * The event catalogue. Database triggers write these (see the migration
 * events_and_webhooks) except task.overdue, which a scheduled sweep writes.
 * Payloads are thin: ids and what changed; fetch the resource for the rest.
 */
export const EVENT_TYPES = {
  'consumer_case.created': 'A consumer case was created (data: id, status).',
  'consumer_case.status_changed': 'A consumer case changed status (data: id, status, previousStatus).',
  'consumer_case.deleted': 'A consumer case was deleted (data: id, status).',
  'business_case.created': 'A business case was created (data: id, status).',
  'business_case.status_changed': 'A business case changed status (data: id, status, previousStatus).',
  'business_case.deleted': 'A business case was deleted (data: id, status).',
  'task.created': 'A task was created (data: id, status, priority, dueDate, consumerCaseId, businessCaseId).',
  'task.status_changed': 'A task changed status (data: id, status, previousStatus).',
  'task.assigned': 'A team member was assigned to a task (data: taskId, userId).',
  'task.overdue': 'An open task passed its due date (data: id, status, dueDate); once per due date.',
  'document.created': 'A document record was created (data: id, type, fileId, consumerCaseId, businessCaseId).',
  'document.analyzed': 'A document analysis finished (data: analysisId, fileId, kind, status SUCCEEDED or FAILED, documentIds).',
  'screening.completed': 'A screening ran (data: id, target, trigger, outcome, hitCount, consumerCaseId, businessCaseId, businessPartyId).',
  'screening.hit_found': 'A screening found at least one hit (same data as screening.completed).',
  'screening.hit_reviewed': 'A screening hit was decided (data: id, screeningId, status, previousStatus).',
  'risk_assessment.completed': 'A risk assessment was made (data: id, level, riskScore, consumerCaseId, businessCaseId).',
  'onboarding.submitted': 'A person submitted their onboarding form (data: consumerCaseId, invitationId, submittedAt).',
  'onboarding.checks_completed': 'The checks after an onboarding submission finished (data: consumerCaseId, invitationId).',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

/** Subscribes an endpoint to every event type, present and future. */
export const ALL_EVENTS = '*';

/** A known event type, or "*": what subscriptions and feed filters accept. */
export function isEventTypeOrAll(value: string): boolean {
  return value === ALL_EVENTS || Object.hasOwn(EVENT_TYPES, value);
}
