import { GraphQLUpload } from 'graphql-upload-minimal';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { FileUpload } from '../files/file-service.ts';
import { FileVisibility } from '../generated/prisma/enums.ts';
import { costs, OBJECT_STORE } from './cost.ts';

builder.addScalarType('Upload', GraphQLUpload, {});

export const FileVisibilityEnum = builder.enumType(FileVisibility, { name: 'FileVisibility' });

export const StoredFile = builder.prismaObject('StoredFile', {
  description: 'A stored file. Its type was detected from its bytes; its name is metadata only.',
  fields: (t) => ({
    fileKey: t.exposeString('key', { description: '`public/...` or `private/...`; use it to refer to the file.' }),
    url: t.string({
      nullable: true,
      description: 'For public files: an address that works without authentication.',
      resolve: (file, _args, { files }) => (file.visibility === 'PUBLIC' ? files.publicUrl(file.key) : null),
    }),
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size', { description: 'Bytes.' }),
    sha256: t.exposeString('sha256'),
    visibility: t.expose('visibility', { type: FileVisibilityEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SignedUrl = builder.objectRef<{ url: string; expires: Date }>('SignedUrl').implement({
  description: 'A time-limited download address that needs no API key.',
  fields: (t) => ({
    url: t.exposeString('url'),
    expires: t.expose('expires', { type: 'DateTime' }),
  }),
});

const DeletedFile = builder.objectRef<{ fileKey: string; deletedDocuments: number }>('DeletedFile').implement({
  fields: (t) => ({
    fileKey: t.exposeString('fileKey'),
    deletedDocuments: t.exposeInt('deletedDocuments', { description: 'Document records of the file, removed with it.' }),
    message: t.string({
      resolve: ({ fileKey, deletedDocuments }) =>
        `File ${fileKey} deleted${deletedDocuments ? ` with ${deletedDocuments} document record(s)` : ''}`,
    }),
  }),
});

const fileKey = z.string().min(1, 'must not be empty').max(300, 'must be at most 300 characters');

builder.queryField('signedFileUrl', (t) =>
  t.field({
    type: SignedUrl,
    description: 'A presigned download URL for one of your files (typically a private one).',
    authScopes: { permission: 'files:read' },
    args: {
      key: t.arg.string({ required: true, validate: fileKey }),
      expiresIn: t.arg.int({
        required: false,
        description: 'Seconds the URL stays valid (1 to 604800); default from SIGNED_URL_TTL_SECONDS.',
        validate: z.number().int().min(1, 'must be at least 1').max(604_800, 'must be at most 604800').nullish(),
      }),
    },
    resolve: (_root, { key, expiresIn }, { db, files, apiKey }) => files.signedUrl(db, apiKey.organizationId, key, expiresIn),
  }),
);

builder.mutationFields((t) => ({
  uploadPublicFile: t.prismaField({
    type: StoredFile,
    description: 'Stores a file readable by anyone with its `url` (multipart request spec, variable `file`).',
    authScopes: { permission: 'files:write' },
    extensions: costs(OBJECT_STORE),
    args: { file: t.arg({ type: 'Upload', required: true }) },
    resolve: (query, _root, { file }, { db, files, apiKey }) =>
      files.upload(db, apiKey.organizationId, 'PUBLIC', file as Promise<FileUpload>, query),
  }),
  uploadPrivateFile: t.prismaField({
    type: StoredFile,
    description: 'Stores a file readable only through signed URLs.',
    authScopes: { permission: 'files:write' },
    extensions: costs(OBJECT_STORE),
    args: { file: t.arg({ type: 'Upload', required: true }) },
    resolve: (query, _root, { file }, { db, files, apiKey }) =>
      files.upload(db, apiKey.organizationId, 'PRIVATE', file as Promise<FileUpload>, query),
  }),
  deleteFile: t.field({
    type: DeletedFile,
    description: 'Deletes a file and the document records that refer to it.',
    authScopes: { permission: 'files:write' },
    extensions: costs(OBJECT_STORE),
    args: { key: t.arg.string({ required: true, validate: fileKey }) },
    resolve: async (_root, { key }, { db, files, apiKey }) => {
      const { deletedDocuments } = await files.delete(db, apiKey.organizationId, key);
      return { fileKey: key, deletedDocuments };
    },
  }),
}));
