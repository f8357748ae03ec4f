// Writes graphql/schema.graphql from the code-first schema (sorted), or with
// --check fails when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../src/schema/index.ts';

const target = new URL('../graphql/schema.graphql', import.meta.url);
const printed = `${printSchema(schema)}\n`;
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== printed) {
    console.error('graphql/schema.graphql is out of date: run npm run schema:print');
    process.exit(1);
  }
} else {
  writeFileSync(target, printed);
}
