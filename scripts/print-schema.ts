// Writes graphql/schema.graphql from the code-first schema (sorted), or with
// --check fails when the committed file differs.
import { printSchema } from 'graphql';
import { schema } from '../src/schema/index.ts';
import { writeOrCheck } from './write-or-check.ts';

writeOrCheck(new URL('../graphql/schema.graphql', import.meta.url), `${printSchema(schema)}\n`, 'npm run schema:print');
