import { createHash } from 'node:crypto';
import type { TenantDatabase } from '../db/tenant.ts';
import { badRequest } from '../errors.ts';
import type { ScreeningSubjectKind, ScreeningTarget } from '../generated/prisma/enums.ts';
import { nameTokens } from './matching/normalize.ts';

/** Who is screened, as stored with the screening. */
export interface ScreeningRequest {
  target: ScreeningTarget;
  /** Stable across screenings of the same subject: reviewers' decisions are remembered per key. */
  subjectKey: string;
  name: string;
  aliases: string[];
  kind: ScreeningSubjectKind;
  birthDate: string | null;
  countries: string[];
  identifiers: string[];
  consumerCaseId?: string;
  businessCaseId?: string;
  businessPartyId?: string;
}

const isoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);
const present = <T>(values: Array<T | null | undefined>) => [...new Set(values.filter((v): v is T => v != null && v !== ''))];
const addressCountry = (address: unknown) => (address as { country?: string } | null)?.country ?? null;

/**
 * An ad-hoc subject is identified by the caller's reference when given, else
 * by its normalized name, kind and birth date, so that screening the same
 * person again reuses the decisions taken on them.
 */
export function adHocSubjectKey(input: { reference?: string | null; name: string; kind: ScreeningSubjectKind; birthDate?: string | null }) {
  if (input.reference) return `ad_hoc_ref:${input.reference}`;
  const name = nameTokens(input.name, input.kind).sort().join(' ');
  return `ad_hoc:${createHash('sha256').update(`${input.kind}|${name}|${input.birthDate ?? ''}`).digest('hex')}`;
}

export async function consumerCaseSubject(db: TenantDatabase, id: string): Promise<ScreeningRequest> {
  const row = await db.consumerCase.findUniqueOrThrow({ where: { id } });
  const name = present([row.firstName, row.lastName]).join(' ');
  if (!name) throw badRequest('the consumer case has no first or last name to screen');
  return {
    target: 'CONSUMER_CASE', subjectKey: `consumer_case:${row.id}`, consumerCaseId: row.id,
    name, aliases: [], kind: 'PERSON', birthDate: isoDate(row.dateOfBirth), countries: present([row.nationality]), identifiers: [],
  };
}

export async function businessCaseSubjects(db: TenantDatabase, id: string, includeParties: boolean): Promise<ScreeningRequest[]> {
  const row = await db.businessCase.findUniqueOrThrow({ where: { id }, include: { parties: includeParties ? { orderBy: { createdAt: 'asc' } } : false } });
  const business: ScreeningRequest = {
    target: 'BUSINESS_CASE', subjectKey: `business_case:${row.id}`, businessCaseId: row.id,
    name: row.legalName, aliases: present([row.dbaName]).filter((alias) => alias !== row.legalName), kind: 'ORGANIZATION', birthDate: null,
    countries: present([row.jurisdictionCountry, addressCountry(row.registeredAddress), addressCountry(row.operatingAddress)]),
    identifiers: present([row.registrationNumber, row.taxId]),
  };
  const parties: ScreeningRequest[] = (row.parties ?? []).map((party) => partyRequest(row.id, party));
  return [business, ...parties];
}

interface PartyRow {
  id: string;
  kind: 'INDIVIDUAL' | 'COMPANY';
  name: string;
  dateOfBirth: Date | null;
  country: string | null;
  registrationNumber: string | null;
}

function partyRequest(businessCaseId: string, party: PartyRow): ScreeningRequest {
  return {
    target: 'BUSINESS_PARTY', subjectKey: `business_party:${party.id}`, businessCaseId, businessPartyId: party.id,
    name: party.name, aliases: [], kind: party.kind === 'INDIVIDUAL' ? 'PERSON' : 'ORGANIZATION',
    birthDate: isoDate(party.dateOfBirth), countries: present([party.country]), identifiers: present([party.registrationNumber]),
  };
}

export async function businessPartySubject(db: TenantDatabase, id: string): Promise<ScreeningRequest> {
  const party = await db.businessParty.findUniqueOrThrow({ where: { id } });
  return partyRequest(party.businessCaseId, party);
}

/** The subject of an earlier case screening as the case reads now (null when the case or party is gone). */
export async function currentSubject(
  db: TenantDatabase,
  screening: { target: ScreeningTarget; consumerCaseId: string | null; businessCaseId: string | null; businessPartyId: string | null },
): Promise<ScreeningRequest | null> {
  try {
    if (screening.target === 'CONSUMER_CASE' && screening.consumerCaseId) return await consumerCaseSubject(db, screening.consumerCaseId);
    if (screening.target === 'BUSINESS_CASE' && screening.businessCaseId) return (await businessCaseSubjects(db, screening.businessCaseId, false))[0]!;
    if (screening.target === 'BUSINESS_PARTY' && screening.businessPartyId) return await businessPartySubject(db, screening.businessPartyId);
  } catch (error) {
    if ((error as { code?: string }).code === 'P2025') return null;
    throw error;
  }
  return null;
}
