import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import { textSearch } from '../db/text-search.ts';
import * as rules from '../domain/validation.ts';
import { DocumentStatus, DocumentType } from '../generated/prisma/enums.ts';
import { BusinessCase, requireBusinessCase } from './business-case.ts';
import { ConsumerCase, requireConsumerCase } from './consumer-case.ts';
import { costs, OBJECT_STORE } from './cost.ts';
import { StoredFile } from './file.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';

export const DocumentTypeEnum = builder.enumType(DocumentType, { name: 'DocumentType' });
export const DocumentStatusEnum = builder.enumType(DocumentStatus, { name: 'DocumentStatus' });

const fileField = <Key extends 'key' | 'fileName' | 'contentType' | 'size' | 'sha256'>(key: Key) =>
  ({ select: { file: { select: { [key]: true } } } }) as { select: { file: { select: Record<Key, true> } } };

export const Document = builder.prismaObject('Document', {
  description: 'The register entry of a stored file: what it is, its review status and its case.',
  fields: (t) => ({
    id: t.exposeID('id'),
    fileKey: t.string({ ...fileField('key'), resolve: (d) => d.file.key }),
    fileName: t.string({ ...fileField('fileName'), resolve: (d) => d.file.fileName }),
    contentType: t.string({ ...fileField('contentType'), resolve: (d) => d.file.contentType }),
    size: t.int({ ...fileField('size'), resolve: (d) => d.file.size }),
    sha256: t.string({ ...fileField('sha256'), resolve: (d) => d.file.sha256 }),
    type: t.expose('type', { type: DocumentTypeEnum }),
    status: t.expose('status', { type: DocumentStatusEnum }),
    consumerCaseId: t.exposeID('consumerCaseId', { nullable: true }),
    businessCaseId: t.exposeID('businessCaseId', { nullable: true }),
    file: t.relation('file', { type: StoredFile }),
    consumerCase: t.relation('consumerCase', { type: ConsumerCase, nullable: true, authScopes: { permission: 'consumer_cases:read' } }),
    businessCase: t.relation('businessCase', { type: BusinessCase, nullable: true, authScopes: { permission: 'business_cases:read' } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

// A case shows the documents filed for it.
const caseDocuments = {
  description: 'Documents filed for this case, newest first.',
  cursor: 'id',
  totalCount: true,
  authScopes: { permission: 'documents:read' },
  query: () => ({ orderBy: NEWEST_FIRST }),
} as const;
builder.prismaObjectField(ConsumerCase, 'documents', (t) => t.relatedConnection('documents', caseDocuments));
builder.prismaObjectField(BusinessCase, 'documents', (t) => t.relatedConnection('documents', caseDocuments));

const DocumentList = listOf('DocumentList', Document, 'A page of documents, newest first.');

const requireDocument = (db: TenantDatabase, id: string) =>
  findOr404('Document', id, (uuid) =>
    db.document.findUnique({ where: { id: uuid }, select: { id: true, fileId: true, file: { select: { key: true } } } }),
  );

builder.queryFields((t) => ({
  documents: t.field({
    type: DocumentList,
    description: 'Documents of your organization, newest first.',
    authScopes: { permission: 'documents:read' },
    args: {
      ...pageArgs,
      type: t.arg({ type: DocumentTypeEnum, required: false }),
      status: t.arg({ type: DocumentStatusEnum, required: false }),
      consumerCaseId: t.arg.id({ required: false, validate: rules.uuid.nullish() }),
      businessCaseId: t.arg.id({ required: false, validate: rules.uuid.nullish() }),
      search: t.arg.string({ required: false, validate: rules.searchText.nullish(), description: 'Matches the file name; every word must match.' }),
    },
    resolve: (_root, args, context, info) => {
      const where = {
        ...(args.type ? { type: args.type } : {}),
        ...(args.status ? { status: args.status } : {}),
        ...(args.consumerCaseId ? { consumerCaseId: args.consumerCaseId } : {}),
        ...(args.businessCaseId ? { businessCaseId: args.businessCaseId } : {}),
        ...(args.search ? { file: textSearch(args.search, ['fileName'] as const) } : {}),
      };
      return pageOf(
        args,
        (window) =>
          context.db.document.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: NEWEST_FIRST, ...window }),
        () => context.db.document.count({ where }),
      );
    },
  }),
  document: t.prismaField({
    type: Document,
    description: 'One document; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'documents:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Document', id, (uuid) => db.document.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

const DocumentLinks = z.object({
  consumerCaseId: rules.uuid.nullish(),
  businessCaseId: rules.uuid.nullish(),
  status: rules.notNull(rules.enumValue(DocumentStatus)),
});

const CreateDocumentInput = builder.inputType('CreateDocumentInput', {
  validate: DocumentLinks.extend({
    fileKey: z.string().min(1, 'must not be empty').max(300, 'must be at most 300 characters'),
    type: rules.enumValue(DocumentType),
  }),
  fields: (t) => ({
    fileKey: t.string({ required: true, description: 'An uploaded file of your organization.' }),
    type: t.field({ type: DocumentTypeEnum, required: true }),
    status: t.field({ type: DocumentStatusEnum, description: 'Default UPLOADED.' }),
    consumerCaseId: t.id(),
    businessCaseId: t.id(),
  }),
});

const UpdateDocumentInput = builder.inputType('UpdateDocumentInput', {
  description: 'Fields to change; omitted fields stay, null unlinks a case.',
  validate: DocumentLinks.extend({ type: rules.notNull(rules.enumValue(DocumentType)) }),
  fields: (t) => ({
    type: t.field({ type: DocumentTypeEnum }),
    status: t.field({ type: DocumentStatusEnum }),
    consumerCaseId: t.id(),
    businessCaseId: t.id(),
  }),
});

/** Linked cases must be the caller's (404 otherwise). */
async function checkLinks(db: TenantDatabase, links: { consumerCaseId?: string | null; businessCaseId?: string | null }) {
  if (links.consumerCaseId) await requireConsumerCase(db, links.consumerCaseId);
  if (links.businessCaseId) await requireBusinessCase(db, links.businessCaseId);
}

builder.mutationFields((t) => ({
  createDocument: t.prismaField({
    type: Document,
    description: 'Registers an uploaded file as a document, optionally for a case.',
    authScopes: { permission: 'documents:write' },
    args: { input: t.arg({ type: CreateDocumentInput, required: true }) },
    resolve: async (query, _root, { input }, { db, files, apiKey }) => {
      const file = await files.find(db, apiKey.organizationId, input.fileKey);
      await checkLinks(db, input);
      const { fileKey: _key, status, ...rest } = input;
      return db.document.create({
        ...query,
        data: { ...rest, ...(status ? { status } : {}), fileId: file.id, organizationId: apiKey.organizationId },
      });
    },
  }),
  updateDocument: t.prismaField({
    type: Document,
    description: 'Changes type, status or the linked cases.',
    authScopes: { permission: 'documents:write' },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateDocumentInput, required: true }) },
    resolve: async (query, _root, { id, input }, { db }) => {
      await requireDocument(db, id);
      await checkLinks(db, input);
      const { type, status, ...links } = input;
      return db.document.update({
        ...query,
        where: { id },
        data: { ...links, ...(type ? { type } : {}), ...(status ? { status } : {}) },
      });
    },
  }),
  deleteDocument: t.prismaField({
    type: Document,
    description:
      'Deletes the record and returns it as it was. Its file is deleted too when no other document uses it, unless keepFile is true.',
    authScopes: { permission: 'documents:write' },
    extensions: costs(OBJECT_STORE),
    args: {
      id: t.arg.id({ required: true }),
      keepFile: t.arg.boolean({ required: false, defaultValue: false }),
    },
    resolve: async (query, _root, { id, keepFile }, { db, files, apiKey }) => {
      const document = await requireDocument(db, id);
      const deleted = await db.document.findUniqueOrThrow({ ...query, where: { id } });
      const sharedWith = await db.document.count({ where: { fileId: document.fileId, id: { not: id } } });
      if (keepFile || sharedWith > 0) {
        await db.document.delete({ where: { id } });
      } else {
        // Object first, then the file row, whose deletion removes this record.
        await files.delete(db, apiKey.organizationId, document.file.key);
      }
      return deleted;
    },
  }),
}));
