import { builder } from '../builder.ts';
import * as rules from '../domain/validation.ts';
import { assessCase } from '../risk/case-assessment.ts';
import { businessCaseSubjects, consumerCaseSubject } from '../screening/subjects.ts';
import { requireBusinessCase } from './business-case.ts';
import { requireConsumerCase } from './consumer-case.ts';
import { Screening } from './screening.ts';
import { costs, listOfAtMost, RISK_ASSESSMENT, SCREENING } from './cost.ts';

/** Parties a business case is taken to have when its screening is costed (the case itself is one more). */
const TYPICAL_PARTIES = 5;

interface CaseScreening {
  screeningIds: string[];
}

const CaseScreeningRef = builder.objectRef<CaseScreening>('CaseScreening').implement({
  description: 'The screenings of one case run: the case\'s own subject first, then each party of a business case.',
  fields: (t) => ({
    screenings: t.prismaField({
      type: [Screening],
      extensions: listOfAtMost(1 + TYPICAL_PARTIES),
      resolve: async (query, parent, _args, context) => {
        const rows = await context.db.screening.findMany({ ...query, where: { id: { in: parent.screeningIds } } });
        return parent.screeningIds.map((id) => rows.find((row) => row.id === id)!);
      },
    }),
  }),
});

builder.mutationFields((t) => ({
  screenConsumerCase: t.field({
    type: CaseScreeningRef,
    description: 'Screens the person of a consumer case (name, date of birth, nationality), records the screening and re-assesses the case\'s risk.',
    authScopes: { permission: 'screening:write' },
    extensions: costs(SCREENING + RISK_ASSESSMENT),
    args: { id: t.arg.id({ required: true }), userId: t.arg.string({ required: false, validate: rules.userId.nullish() }) },
    resolve: async (_root, { id, userId }, { db, apiKey, screening }) => {
      await requireConsumerCase(db, id);
      const request = await consumerCaseSubject(db, id);
      const screeningId = await screening.screen(db, request, { organizationId: apiKey.organizationId, requestedBy: userId ?? apiKey.name });
      // The case's risk follows its screening (see riskAssessments).
      await assessCase(db, apiKey.organizationId, { consumerCaseId: id }, userId ?? apiKey.name);
      return { screeningIds: [screeningId] };
    },
  }),
  screenBusinessCase: t.field({
    type: CaseScreeningRef,
    description: 'Screens a business (legal and trading name, jurisdiction, registration and tax numbers) and, by default, each of its parties; then re-assesses the case\'s risk.',
    authScopes: { permission: 'screening:write' },
    // One screening per party: the number of parties is not known before it runs.
    extensions: costs((args) => SCREENING * (args.includeParties === false ? 1 : 1 + TYPICAL_PARTIES) + RISK_ASSESSMENT),
    args: {
      id: t.arg.id({ required: true }),
      includeParties: t.arg.boolean({ required: false, defaultValue: true, description: 'Also screen every party (owners, directors ...). Default true.' }),
      userId: t.arg.string({ required: false, validate: rules.userId.nullish() }),
    },
    resolve: async (_root, { id, includeParties, userId }, { db, apiKey, screening }) => {
      await requireBusinessCase(db, id);
      const screeningIds: string[] = [];
      for (const request of await businessCaseSubjects(db, id, includeParties ?? true)) {
        screeningIds.push(await screening.screen(db, request, { organizationId: apiKey.organizationId, requestedBy: userId ?? apiKey.name }));
      }
      await assessCase(db, apiKey.organizationId, { businessCaseId: id }, userId ?? apiKey.name);
      return { screeningIds };
    },
  }),
}));

