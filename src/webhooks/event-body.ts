/** An event as the API shows it (GET /v1/events/{id}) and as webhooks post it. */
export function eventBody(event: {
  id: string; type: string; resourceType: string; resourceId: string; data: unknown; actor: string | null; requestId: string | null; createdAt: Date;
}) {
  return {
    id: event.id,
    type: event.type,
    resourceType: event.resourceType,
    resourceId: event.resourceId,
    data: event.data,
    actor: event.actor,
    requestId: event.requestId,
    createdAt: event.createdAt.toISOString(),
  };
}
