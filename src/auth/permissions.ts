/**
 * The permission catalogue: `resource:action`. An API key carries a subset;
 * every root GraphQL field (and so every REST route) names the one it needs.
 */
export const PERMISSIONS = {
  'consumer_cases:read': 'List and read consumer (KYC) cases',
  'consumer_cases:write': 'Create, update and delete consumer cases',
  'business_cases:read': 'List and read business (KYB) cases',
  'business_cases:write': 'Create, update and delete business cases',
  'tasks:read': 'List and read tasks',
  'tasks:write': 'Create, update and delete tasks and their assignees',
  'files:read': 'Get signed download URLs of stored files',
  'files:write': 'Upload and delete files',
  'documents:read': 'List and read document records',
  'documents:write': 'Create, update and delete document records',
  'document_analysis:read': 'Read analysis results and job status',
  'document_analysis:write': 'Run document analyses',
  'notes:read': 'List and read notes on cases and tasks',
  'notes:write': 'Create, update and delete notes',
  'screening:read': 'Read watchlists, screenings, hits and screening settings',
  'screening:write': 'Screen names, consumer cases and business cases (with their parties)',
  'screening:review': 'Decide screening hits (true match or false positive)',
  'screening:configure': 'Change the organization\'s screening settings (threshold, adverse media)',
  'risk:read': 'Read risk assessments and their history',
  'risk:write': 'Run risk assessments (and open enhanced due diligence tasks)',
  'audit:read': 'Read the audit trail (every change, who made it, before and after)',
  'events:read': 'Read the event feed (consumer_case.created, task.assigned, ...)',
  'webhooks:read': 'List webhook endpoints and their delivery log',
  'webhooks:write': 'Create, change and delete webhook endpoints, rotate their secrets and replay deliveries',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(PERMISSIONS, value);
}
