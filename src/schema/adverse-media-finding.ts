import { builder } from '../builder.ts';

interface CategoryView {
  category: string;
  confidence: number;
  evidence: string[];
}

const MediaCategoryRef = builder.objectRef<CategoryView>('AdverseMediaCategory').implement({
  description: 'A risk category the article alleges about the subject, with the sentences that say so.',
  fields: (t) => ({
    category: t.exposeString('category', {
      description: 'FRAUD, MONEY_LAUNDERING, BRIBERY_CORRUPTION, SANCTIONS_EVASION, TERRORISM_FINANCING, ORGANIZED_CRIME, TAX_CRIMES, CYBERCRIME, DRUG_TRAFFICKING, HUMAN_TRAFFICKING, ARMS_TRAFFICKING, MARKET_ABUSE or REGULATORY_ENFORCEMENT.',
    }),
    confidence: t.exposeFloat('confidence', { description: '0..1' }),
    evidence: t.exposeStringList('evidence'),
  }),
});

export const AdverseMediaFinding = builder.prismaObject('AdverseMediaFinding', {
  description: 'A news article that names the screened subject and alleges a risk.',
  fields: (t) => ({
    id: t.exposeID('id'),
    providerId: t.exposeString('providerId'),
    articleId: t.exposeString('articleId'),
    title: t.exposeString('title'),
    summary: t.exposeString('summary', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
    source: t.exposeString('source', { nullable: true }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    matchedText: t.exposeString('matchedText', { description: 'The article\'s words the name matcher took for the subject.' }),
    nameScore: t.exposeFloat('nameScore'),
    categories: t.field({ type: [MediaCategoryRef], select: { categories: true }, resolve: (f) => f.categories as unknown as CategoryView[] }),
    relevance: t.exposeFloat('relevance', { description: 'Name score × category confidence, 0..1.' }),
    classifierVersion: t.exposeString('classifierVersion'),
  }),
});
