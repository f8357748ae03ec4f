import { z } from 'zod';
import { builder } from '../builder.ts';
import * as rules from '../domain/validation.ts';
import { DEFAULT_THRESHOLD } from '../screening/matching/name-index.ts';

interface SettingsView {
  threshold: number;
  thresholdIsDefault: boolean;
  adverseMedia: boolean;
  updatedBy: string | null;
  updatedAt: Date | null;
}

const ScreeningSettingsRef = builder.objectRef<SettingsView>('ScreeningSettings').implement({
  description: 'How your organization screens.',
  fields: (t) => ({
    threshold: t.exposeFloat('threshold', { description: `Hits scoring below are not reported (platform default ${DEFAULT_THRESHOLD}).` }),
    thresholdIsDefault: t.exposeBoolean('thresholdIsDefault'),
    defaultThreshold: t.float({ resolve: () => DEFAULT_THRESHOLD, description: 'The platform default, measured in bench/results-screening.md.' }),
    adverseMedia: t.exposeBoolean('adverseMedia', { description: 'Search adverse media with each screening (when a provider is configured).' }),
    updatedBy: t.exposeString('updatedBy', { nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
  }),
});

const view = (row: { threshold: number | null; adverseMedia: boolean; updatedBy: string | null; updatedAt: Date } | null): SettingsView => ({
  threshold: row?.threshold ?? DEFAULT_THRESHOLD,
  thresholdIsDefault: row?.threshold == null,
  adverseMedia: row?.adverseMedia ?? true,
  updatedBy: row?.updatedBy ?? null,
  updatedAt: row?.updatedAt ?? null,
});

const UpdateSettingsInput = builder.inputType('UpdateScreeningSettingsInput', {
  description: 'Fields to change; threshold null returns to the platform default.',
  validate: z.object({
    threshold: z.number().min(0.5, 'must be at least 0.5').max(1, 'must be at most 1').nullish(),
    adverseMedia: rules.notNull(z.boolean()),
    userId: rules.userId.nullish(),
  }),
  fields: (t) => ({
    threshold: t.float({ description: '0.5 to 1. Lower finds more (and more false positives).' }),
    adverseMedia: t.boolean(),
    userId: t.string({ description: 'Who changed it; default: the API key\'s label.' }),
  }),
});

builder.queryFields((t) => ({
  screeningSettings: t.field({
    type: ScreeningSettingsRef,
    description: 'Your organization\'s screening settings.',
    authScopes: { permission: 'screening:read' },
    resolve: async (_root, _args, { db }) => view(await db.screeningSettings.findFirst()),
  }),
}));

builder.mutationFields((t) => ({
  updateScreeningSettings: t.field({
    type: ScreeningSettingsRef,
    description: 'Changes your organization\'s screening threshold or adverse media choice.',
    authScopes: { permission: 'screening:configure' },
    args: { input: t.arg({ type: UpdateSettingsInput, required: true }) },
    resolve: async (_root, { input }, { db, apiKey, screening }) => {
      const changes = {
        ...(input.threshold !== undefined ? { threshold: input.threshold } : {}),
        ...(input.adverseMedia != null ? { adverseMedia: input.adverseMedia } : {}),
        updatedBy: input.userId ?? apiKey.name,
      };
      const row = await db.screeningSettings.upsert({
        where: { organizationId: apiKey.organizationId },
        create: { ...changes, organizationId: apiKey.organizationId },
        update: changes,
      });
      screening.settingsChanged(apiKey.organizationId);
      return view(row);
    },
  }),
}));
