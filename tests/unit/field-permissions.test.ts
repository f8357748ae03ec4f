// The permission catalogue over every GraphQL field, not only the root ones.
// Every object type belongs to a resource (the `<resource>` of its
// permissions) or is a value type with no resource of its own. Walking the
// schema from each root field (whose permission names the resource it
// starts in), a field whose type belongs to ANOTHER resource than the one
// the walk is in must declare `<that resource>:read` (authScopes), so that
// e.g. a key with tasks:read but not consumer_cases:read cannot read a case
// through Task.consumerCase. Pagination wrappers (pages, connections, edges)
// are looked through: ConsumerCase.tasks leads into tasks. A root field may
// only return its own resource's types. New types fail here until classified
// below; exceptions are listed with their reason.
import {
  getNamedType,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { declaredPermission } from '../../src/auth/field-permission.ts';
import { isPermission } from '../../src/auth/permissions.ts';
import { schema } from '../../src/schema/index.ts';

/** GraphQL type → the resource whose permissions guard it. */
const OWNER: Record<string, string> = {
  ConsumerCase: 'consumer_cases',
  ConsumerOnboarding: 'consumer_cases',
  OnboardingField: 'consumer_cases',
  OnboardingRequestedDocument: 'consumer_cases',
  OnboardingBranding: 'consumer_cases',
  SendOnboardingEmailResult: 'consumer_cases',

  BusinessCase: 'business_cases',
  BusinessParty: 'business_cases',
  PartyHolding: 'business_cases',
  Ownership: 'business_cases',
  OwnershipNode: 'business_cases',
  OwnershipEdge: 'business_cases',
  OwnershipPath: 'business_cases',
  BeneficialOwner: 'business_cases',
  ControlPerson: 'business_cases',
  UndisclosedShare: 'business_cases',

  Task: 'tasks',
  TaskAssignee: 'tasks',

  Note: 'notes',

  StoredFile: 'files',
  SignedUrl: 'files',
  DeletedFile: 'files',
  OnboardingUpload: 'files',

  Document: 'documents',

  DocumentAnalysis: 'document_analysis',
  AnalysisTable: 'document_analysis',
  MergedCell: 'document_analysis',
  FormField: 'document_analysis',
  MrzCheck: 'document_analysis',
  MrzCheckDigits: 'document_analysis',

  Screening: 'screening',
  ScreeningHit: 'screening',
  HitDecision: 'screening',
  CaseScreening: 'screening',
  ListVersion: 'screening',
  AdverseMediaFinding: 'screening',
  AdverseMediaCategory: 'screening',
  ScreeningSettings: 'screening',
  Watchlist: 'screening',
  WatchlistLoad: 'screening',
  WatchlistEntity: 'screening',
  ListedName: 'screening',
  ListedIdentifier: 'screening',

  RiskAssessment: 'risk',
  RiskFactor: 'risk',
  EnhancedDueDiligence: 'risk',
  EddChecklistItem: 'risk',

  AuditEvent: 'audit',

  // The events/webhooks feature (classified ahead; entries of types not in the schema are ignored).
  Event: 'events',
  EventFeed: 'events',
  WebhookEndpoint: 'webhooks',
  WebhookEndpointSecret: 'webhooks',
  WebhookDelivery: 'webhooks',
  WebhookDeliveryAttempt: 'webhooks',
};

/** Types with no resource of their own: they carry only what the field that returns them belongs to. */
const VALUE_TYPES = new Set(['Address', 'ListMeta', 'PageInfo']);

/**
 * Pagination wrappers (`{items, meta}` pages, Relay connections and their
 * edges) are value types by shape; their item type is classified itself.
 */
function isWrapper(type: GraphQLNamedType): boolean {
  if (!isObjectType(type)) return false;
  const names = Object.keys(type.getFields()).sort().join(',');
  return ['items,meta', 'edges,pageInfo', 'edges,pageInfo,totalCount', 'cursor,node'].includes(names);
}

/** Fields that cross into another resource without its read permission, on purpose. */
const EXCEPTIONS: Record<string, string> = {
  'Document.file': 'the stored file\'s metadata (key, name, type, size, hash) is part of the document record; its bytes need files:read (a signed URL) and its analyses document_analysis:read',
  'OnboardingRequestedDocument.file': 'only name, size and type of what the person uploaded to the form (no key, no URL); the bytes need files:read',
};

const ROOTS = [schema.getQueryType()!, schema.getMutationType()!];
const isRoot = (type: GraphQLNamedType) => ROOTS.some((root) => root.name === type.name);
const resourceOf = (permission: string) => permission.split(':')[0]!;

type Classification = { owner: string } | { value: true } | { unclassified: true };
function classify(type: GraphQLNamedType): Classification {
  if (Object.hasOwn(OWNER, type.name)) return { owner: OWNER[type.name]! };
  if (VALUE_TYPES.has(type.name) || isWrapper(type)) return { value: true };
  return { unclassified: true };
}

/** The object, interface and union types a field can return (a union's or interface's members too). */
function targetsOf(field: GraphQLField<unknown, unknown>): GraphQLCompositeType[] {
  const named = getNamedType(field.type);
  if (isUnionType(named)) return [named, ...named.getTypes()];
  if (isInterfaceType(named)) return [named, ...schema.getPossibleTypes(named)];
  return isObjectType(named) ? [named] : [];
}

interface Crossing {
  field: string;
  /** Where the walk first met it: root field and the fields below. */
  path: string;
  from: string;
  to: string;
  target: string;
  declared: string | undefined;
}

/** The owned types a field's type leads to, looking through pagination wrappers (page → items, connection → edges → node). */
function ownedThrough(type: GraphQLCompositeType, seen = new Set<string>()): GraphQLCompositeType[] {
  if (seen.has(type.name)) return [];
  seen.add(type.name);
  if ('owner' in classify(type)) return [type];
  if (!isWrapper(type)) return [];
  return Object.values((type as GraphQLObjectType).getFields()).flatMap((field) => targetsOf(field).flatMap((target) => ownedThrough(target, seen)));
}

/** Walks every field reachable from every root field, recording each move into another resource. */
function walk() {
  const crossings: Crossing[] = [];
  const seen = new Set<string>();
  const visitedFields = new Set<string>();
  const rootFields: string[] = [];

  /** Checks one field met inside `resource` and walks on below it. */
  const follow = (owner: string, field: GraphQLField<unknown, unknown>, resource: string, path: string, declared: string | undefined) => {
    for (const target of targetsOf(field)) {
      const owned = ownedThrough(target);
      for (const type of owned) {
        const to = OWNER[type.name]!;
        if (to !== resource) crossings.push({ field: `${owner}.${field.name}`, path, from: resource, to, target: type.name, declared });
      }
      // Below the field the walk is in the resource it leads to (or, for a value type, the one it is guarded by).
      const into = new Set(owned.map((type) => OWNER[type.name]!));
      const next = into.size === 1 ? [...into][0]! : declared && !declared.endsWith('(root)') ? resourceOf(declared) : resource;
      visit(target, next, path);
    }
  };

  const visit = (type: GraphQLCompositeType, resource: string, path: string) => {
    if (seen.has(`${type.name}@${resource}`)) return;
    seen.add(`${type.name}@${resource}`);
    if (isUnionType(type)) return; // members are visited as targets
    for (const field of Object.values(type.getFields())) {
      visitedFields.add(`${type.name}.${field.name}`);
      follow(type.name, field, resource, `${path}.${field.name}`, declaredPermission(field));
    }
  };

  for (const root of ROOTS) {
    for (const field of Object.values(root.getFields())) {
      const permission = declaredPermission(field);
      if (!permission) continue; // tests/unit/schema.test.ts fails for these
      rootFields.push(`${root.name}.${field.name}`);
      visitedFields.add(`${root.name}.${field.name}`);
      // A root field may only return its own resource's types.
      follow(root.name, field, resourceOf(permission), `${root.name}.${field.name}`, `${permission} (root)`);
    }
  }
  return { crossings, visitedFields, rootFields };
}

const { crossings, visitedFields, rootFields } = walk();
const describeCrossing = (c: Crossing) =>
  `${c.field} (at ${c.path}): ${c.target} belongs to ${c.to}, reached inside ${c.from}; declares ${c.declared ?? 'nothing'}, needs ${c.to}:read`;

describe('field permissions across resources', () => {
  const types = Object.values(schema.getTypeMap()).filter(
    (type) => !type.name.startsWith('__') && !isRoot(type) && (isObjectType(type) || isInterfaceType(type) || isUnionType(type)),
  );

  it('classifies every object, interface and union type: a resource, or a value type', () => {
    const unclassified = types.filter((type) => 'unclassified' in classify(type)).map((type) => type.name);
    expect(unclassified, 'add each to OWNER (its resource) or VALUE_TYPES in this file').toEqual([]);
  });

  it('maps types only to resources that have a read permission', () => {
    const present = types.filter((type) => Object.hasOwn(OWNER, type.name));
    const unknown = present.filter((type) => !isPermission(`${OWNER[type.name]}:read`)).map((type) => `${type.name} → ${OWNER[type.name]}`);
    expect(unknown).toEqual([]);
  });

  it('walks every root field and every field reachable from them', () => {
    expect(rootFields.length).toBe(ROOTS.reduce((n, root) => n + Object.keys(root.getFields()).length, 0));
    const unreachable = types
      .filter((type) => !isUnionType(type))
      .flatMap((type) => Object.keys((type as { getFields(): object }).getFields()).map((name) => `${type.name}.${name}`))
      .filter((name) => !visitedFields.has(name));
    expect(unreachable).toEqual([]);
  });

  it('guards every field that leads into another resource with that resource\'s read permission', () => {
    const violations = new Map<string, string>();
    for (const c of crossings) {
      if (c.declared !== `${c.to}:read` && !Object.hasOwn(EXCEPTIONS, c.field) && !violations.has(c.field)) violations.set(c.field, describeCrossing(c));
    }
    expect([...violations.values()]).toEqual([]);
  });

  it('finds the guarded crossings it should (the walk is not vacuous)', () => {
    const guarded = new Set(crossings.filter((c) => c.declared === `${c.to}:read`).map((c) => c.field));
    for (const field of ['ConsumerCase.tasks', 'Task.consumerCase', 'Task.businessCase', 'BusinessCase.notes', 'StoredFile.analyses', 'BusinessParty.consumerCase', 'ConsumerCase.riskAssessments']) {
      expect(guarded, field).toContain(field);
    }
  });

  it('declares only known read permissions below the root', () => {
    const wrong = types
      .filter((type) => isObjectType(type) || isInterfaceType(type))
      .flatMap((type) => Object.values((type as { getFields(): Record<string, GraphQLField<unknown, unknown>> }).getFields()).map((field) => [`${type.name}.${field.name}`, declaredPermission(field)] as const))
      .filter(([, permission]) => permission !== undefined && !(isPermission(permission) && permission.endsWith(':read')));
    expect(wrong).toEqual([]);
  });

  it.each(Object.entries(EXCEPTIONS))('allows %s unguarded (%s), and it still crosses', (field) => {
    expect(crossings.some((c) => c.field === field && c.declared !== `${c.to}:read`)).toBe(true);
  });
});
