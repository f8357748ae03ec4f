import { lexicographicSortSchema } from 'graphql';
import { builder } from '../builder.ts';
import './scalars.ts';
import './consumer-case.ts';
import './business-case.ts';
import './business-party.ts';
import './task.ts';
import './file.ts';
import './document.ts';
import './document-analysis.ts';
import './note.ts';
import './watchlist.ts';
import './screening-hit.ts';
import './screening.ts';
import './case-screening.ts';
import './screening-settings.ts';
import './risk-assessment.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
