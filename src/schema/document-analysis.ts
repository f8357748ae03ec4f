import { z } from 'zod';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import { AnalysisKind, AnalysisStatus } from '../generated/prisma/enums.ts';
import type { IdentityResult, MrzCheck } from '../analysis/identity.ts';
import type { FormField, MergedCell, TableView } from '../analysis/views.ts';
import { StoredFile } from './file.ts';
import { ANALYSIS_OUTPUT, ANALYSIS_TEXT, costs, listOfAtMost, OCR } from './cost.ts';
import { findOr404 } from './find-or-404.ts';
import { NEWEST_FIRST } from './pagination.ts';

const AnalysisKindEnum = builder.enumType(AnalysisKind, { name: 'AnalysisKind' });
const AnalysisStatusEnum = builder.enumType(AnalysisStatus, { name: 'AnalysisStatus' });

interface StoredResult {
  blocks: unknown[];
}
/** What was read from the blocks: stored apart from them (`views`). */
interface StoredViews {
  tables: TableView[];
  forms: FormField[];
  identity?: IdentityResult;
}
const stored = (result: unknown) => (result ?? null) as StoredResult | null;
const storedViews = (views: unknown) => (views ?? null) as StoredViews | null;

const MergedCellRef = builder.objectRef<MergedCell>('MergedCell').implement({
  description: 'Cells joined into one (Textract MERGED_CELL): its first position and spans.',
  fields: (t) => ({
    rowIndex: t.exposeInt('rowIndex'),
    columnIndex: t.exposeInt('columnIndex'),
    rowSpan: t.exposeInt('rowSpan'),
    columnSpan: t.exposeInt('columnSpan'),
  }),
});

const AnalysisTable = builder.objectRef<TableView>('AnalysisTable').implement({
  description: "A table as rows of cell texts; a merged cell's text is in its first position.",
  fields: (t) => ({
    page: t.exposeInt('page'),
    confidence: t.exposeFloat('confidence'),
    rows: t.field({ type: [['String']] as never, resolve: (table) => table.rows }),
    // Results stored before merged cells were reported have none.
    mergedCells: t.field({ type: [MergedCellRef], resolve: (table) => table.mergedCells ?? [] }),
  }),
});

const FormFieldRef = builder.objectRef<FormField>('FormField').implement({
  description: 'A key/value pair found on a form.',
  fields: (t) => ({
    key: t.exposeString('key'),
    value: t.exposeString('value'),
    confidence: t.exposeFloat('confidence'),
    page: t.exposeInt('page'),
  }),
});

const MrzCheckDigits = builder.objectRef<MrzCheck['checkDigits']>('MrzCheckDigits').implement({
  description: 'Whether each MRZ check digit matches (null when the format has none).',
  fields: (t) => ({
    documentNumber: t.exposeBoolean('documentNumber', { nullable: true }),
    birthDate: t.exposeBoolean('birthDate', { nullable: true }),
    expirationDate: t.exposeBoolean('expirationDate', { nullable: true }),
    composite: t.exposeBoolean('composite', { nullable: true }),
  }),
});

const MrzCheckRef = builder.objectRef<MrzCheck>('MrzCheck').implement({
  description: 'The machine-readable zone as read, and whether its check digits hold.',
  fields: (t) => ({
    format: t.exposeString('format'),
    valid: t.exposeBoolean('valid'),
    lines: t.exposeStringList('lines', { description: 'The zone as understood, after mending OCR misreadings the check digits confirm.' }),
    read: t.stringList({ description: 'The zone as OCR read it.', resolve: (mrz) => mrz.read ?? mrz.lines }),
    corrected: t.boolean({
      description: 'Whether characters were mended (the fields concerned then carry at most 70% confidence).',
      resolve: (mrz) => mrz.corrected ?? false,
    }),
    checkDigits: t.field({ type: MrzCheckDigits, resolve: (mrz) => mrz.checkDigits }),
  }),
});

export const DocumentAnalysis = builder.prismaObject('DocumentAnalysis', {
  description: 'One extraction run over a stored file, in AWS Textract\'s block model.',
  // Only the columns a query selects are read: a status poll does not load the result (up to megabytes of blocks).
  select: { id: true },
  fields: (t) => ({
    jobId: t.exposeID('id', { description: 'The analysis id; for queued runs, the job id.' }),
    fileKey: t.string({ select: { file: { select: { key: true } } }, resolve: (a) => a.file.key }),
    kind: t.expose('kind', { type: AnalysisKindEnum }),
    status: t.expose('status', { type: AnalysisStatusEnum }),
    engine: t.exposeString('engine', { nullable: true }),
    pageCount: t.exposeInt('pageCount', { nullable: true }),
    blockCount: t.exposeInt('blockCount', { nullable: true }),
    tableCount: t.exposeInt('tableCount', { nullable: true }),
    formCount: t.exposeInt('formCount', { nullable: true }),
    textContent: t.exposeString('textContent', { nullable: true, extensions: costs(ANALYSIS_TEXT) }),
    blocks: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Textract Block objects (PAGE, LINE, WORD, TABLE, CELL, KEY_VALUE_SET).',
      select: { result: true },
      extensions: costs(ANALYSIS_OUTPUT),
      resolve: (a) => stored(a.result)?.blocks ?? null,
    }),
    // Tables and forms hold the document's words again: they weigh what its text can (their items are not records).
    tables: t.field({ type: [AnalysisTable], nullable: true, select: { views: true }, extensions: costs(ANALYSIS_TEXT), resolve: (a) => storedViews(a.views)?.tables ?? null }),
    forms: t.field({ type: [FormFieldRef], nullable: true, select: { views: true }, extensions: costs(ANALYSIS_TEXT), resolve: (a) => storedViews(a.views)?.forms ?? null }),
    idType: t.string({ nullable: true, select: { views: true }, resolve: (a) => storedViews(a.views)?.identity?.idType ?? null }),
    identityDocumentFields: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Identity analyses: fields in Textract AnalyzeID\'s IdentityDocumentFields shape.',
      select: { views: true },
      resolve: (a) => storedViews(a.views)?.identity?.fields ?? null,
    }),
    mrz: t.field({ type: MrzCheckRef, nullable: true, select: { views: true }, resolve: (a) => storedViews(a.views)?.identity?.mrz ?? null }),
    error: t.exposeString('error', { nullable: true, description: 'Why a FAILED run failed.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaObjectField(StoredFile, 'analyses', (t) =>
  t.relation('analyses', {
    description: 'Extraction runs over this file, newest first.',
    authScopes: { permission: 'document_analysis:read' },
    extensions: listOfAtMost(10),
    query: () => ({ orderBy: NEWEST_FIRST }),
  }),
);

/** Resolver of the synchronous analyses: run now, then load the record with the client's selection. */
const analyzeNow =
  (kind: AnalysisKind) =>
  async (query: object, _root: unknown, args: { fileKey: string }, { db, analysis, apiKey }: Context) => {
    const { id } = await analysis.analyzeNow(db, apiKey.organizationId, args.fileKey, kind, { refuseWhenBusy: true });
    return db.documentAnalysis.findUniqueOrThrow({ ...query, where: { id } });
  };

const fileKey = z.string().min(1, 'must not be empty').max(300, 'must be at most 300 characters');

builder.queryFields((t) => ({
  documentAnalysis: t.prismaField({
    type: DocumentAnalysis,
    description: 'An analysis (or queued job) by id; NOT_FOUND for unknown ids and other organizations\' ids.',
    authScopes: { permission: 'document_analysis:read' },
    args: { jobId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { jobId }, { db }) => {
      await findOr404('Analysis job', jobId, (id) => db.documentAnalysis.findUnique({ where: { id }, select: { id: true } }));
      return db.documentAnalysis.findUniqueOrThrow({ ...query, where: { id: jobId } });
    },
  }),
  parseDocument: t.prismaField({
    type: DocumentAnalysis,
    description: 'Extracts the text of a stored file now (recorded as a TEXT analysis).',
    authScopes: { permission: 'document_analysis:write' },
    // A query that records what it did: it writes, so no read-only transaction (src/http/read-transaction.ts).
    extensions: { writes: true, ...costs(OCR) },
    args: { fileKey: t.arg.string({ required: true, validate: fileKey }) },
    resolve: analyzeNow('TEXT'),
  }),
}));

builder.mutationFields((t) => ({
  analyzeDocument: t.prismaField({
    type: DocumentAnalysis,
    description: 'Extracts text and layout of a stored file now.',
    authScopes: { permission: 'document_analysis:write' },
    extensions: costs(OCR),
    args: { fileKey: t.arg.string({ required: true, validate: fileKey }) },
    resolve: analyzeNow('TEXT'),
  }),
  analyzeIdentityDocument: t.prismaField({
    type: DocumentAnalysis,
    description: 'Reads the identity fields of a passport or ID card (from its MRZ) now.',
    authScopes: { permission: 'document_analysis:write' },
    extensions: costs(OCR),
    args: { fileKey: t.arg.string({ required: true, validate: fileKey }) },
    resolve: analyzeNow('IDENTITY'),
  }),
  analyzeDocumentAsync: t.prismaField({
    type: DocumentAnalysis,
    description:
      'Queues a detailed analysis. With wait (default) it returns once the job is done (or the wait times out, status QUEUED/RUNNING); without, at once.',
    authScopes: { permission: 'document_analysis:write' },
    // Queued or not, the engine runs over the file.
    extensions: costs(OCR),
    args: {
      fileKey: t.arg.string({ required: true, validate: fileKey }),
      wait: t.arg.boolean({ required: false, defaultValue: true }),
    },
    resolve: async (query, _root, args, { db, analysis, apiKey }) => {
      const queued = await analysis.enqueue(db, apiKey.organizationId, args.fileKey);
      if (args.wait !== false) {
        const done = await analysis.waitFor(db, queued.id);
        if (done.status === 'FAILED') {
          const { error } = await db.documentAnalysis.findUniqueOrThrow({ where: { id: queued.id }, select: { error: true } });
          throw new AppError('UNPROCESSABLE', error ?? 'The analysis failed');
        }
      }
      return db.documentAnalysis.findUniqueOrThrow({ ...query, where: { id: queued.id } });
    },
  }),
}));
