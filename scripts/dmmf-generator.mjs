#!/usr/bin/env node
// A Prisma generator that writes the full datamodel (tables, columns, native
// types, indexes, relations) to JSON, so tests can compare the migrated
// database with schema.prisma without Prisma's native schema engine.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import generatorHelper from '@prisma/generator-helper';

generatorHelper.generatorHandler({
  onManifest: () => ({ prettyName: 'Datamodel snapshot', defaultOutput: './datamodel.json' }),
  onGenerate: async ({ dmmf, generator }) => {
    const output = generator.output?.value;
    if (!output) throw new Error('dmmf generator: output is required');
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, JSON.stringify(dmmf.datamodel, null, 2));
  },
});
