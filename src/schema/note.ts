import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import { textSearch } from '../db/text-search.ts';
import { noteHtml, storedNoteHtml } from '../domain/note-html.ts';
import * as rules from '../domain/validation.ts';
import { invalidInput } from '../errors.ts';
import { NoteFormat } from '../generated/prisma/enums.ts';
import { BusinessCase, requireBusinessCase } from './business-case.ts';
import { costs, HTML_RENDERING, LONG_TEXT, NOTE_RENDERING } from './cost.ts';
import { ConsumerCase, requireConsumerCase } from './consumer-case.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';
import { requireTask, Task } from './task.ts';

const NoteFormatEnum = builder.enumType(NoteFormat, { name: 'NoteFormat', description: 'How the body is written: plain text or Markdown.' });

/** Pinned notes first, then newest first. */
const PINNED_THEN_NEWEST = [{ pinned: 'desc' as const }, ...NEWEST_FIRST];

export const Note = builder.prismaObject('Note', {
  description: 'A reviewer\'s note on a business case, consumer case or task.',
  fields: (t) => ({
    id: t.exposeID('id'),
    body: t.exposeString('body', { description: 'As written; never trust it as HTML.', extensions: costs(LONG_TEXT) }),
    format: t.expose('format', { type: NoteFormatEnum }),
    bodyHtml: t.string({
      description: 'The body as safe HTML for display: Markdown rendered or text escaped, then sanitized.',
      select: { id: true, updatedAt: true, body: true, format: true, bodyHtml: true },
      extensions: costs(LONG_TEXT + HTML_RENDERING),
      resolve: (note) => storedNoteHtml(note),
    }),
    author: t.exposeString('author', { description: 'The given userId, else the API key\'s label.' }),
    pinned: t.exposeBoolean('pinned'),
    businessCaseId: t.exposeID('businessCaseId', { nullable: true }),
    consumerCaseId: t.exposeID('consumerCaseId', { nullable: true }),
    taskId: t.exposeID('taskId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const NoteList = listOf('NoteList', Note, 'A page of notes, pinned first, then newest first.');

const requireNote = (db: TenantDatabase, id: string) => findOr404('Note', id, (uuid) => db.note.findUnique({ where: { id: uuid }, select: { id: true } }));

const attachedNotes = {
  description: 'Notes on this record, pinned first, then newest first.',
  cursor: 'id' as const,
  totalCount: true,
  authScopes: { permission: 'notes:read' as const },
  query: () => ({ orderBy: PINNED_THEN_NEWEST }),
};
builder.prismaObjectField(BusinessCase, 'notes', (t) => t.relatedConnection('notes', attachedNotes));
builder.prismaObjectField(ConsumerCase, 'notes', (t) => t.relatedConnection('notes', attachedNotes));
builder.prismaObjectField(Task, 'notes', (t) => t.relatedConnection('notes', attachedNotes));

builder.queryFields((t) => ({
  notes: t.field({
    type: NoteList,
    description: 'Notes of your organization, pinned first, then newest first.',
    authScopes: { permission: 'notes:read' },
    args: {
      ...pageArgs,
      businessCaseId: t.arg.id({ required: false }),
      consumerCaseId: t.arg.id({ required: false }),
      taskId: t.arg.id({ required: false }),
      pinned: t.arg.boolean({ required: false }),
      search: t.arg.string({ required: false, validate: rules.searchText.nullish(), description: 'Matches the body; every word must match.' }),
    },
    resolve: async (_root, args, context, info) => {
      // A filter naming a record of another organization (or none) is a 404, as reading it would be.
      if (args.businessCaseId) await requireBusinessCase(context.db, args.businessCaseId);
      if (args.consumerCaseId) await requireConsumerCase(context.db, args.consumerCaseId);
      if (args.taskId) await requireTask(context.db, args.taskId);
      const where = {
        ...(args.businessCaseId ? { businessCaseId: args.businessCaseId } : {}),
        ...(args.consumerCaseId ? { consumerCaseId: args.consumerCaseId } : {}),
        ...(args.taskId ? { taskId: args.taskId } : {}),
        ...(args.pinned != null ? { pinned: args.pinned } : {}),
        ...textSearch(args.search, ['body'] as const),
      };
      return pageOf(
        args,
        (window) => context.db.note.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: PINNED_THEN_NEWEST, ...window }),
        () => context.db.note.count({ where }),
      );
    },
  }),
  note: t.prismaField({
    type: Note,
    description: 'One note; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'notes:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Note', id, (uuid) => db.note.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

const body = z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20000 characters');

const CreateNoteInput = builder.inputType('CreateNoteInput', {
  description: 'A note on exactly one of a business case, a consumer case or a task.',
  validate: z
    .object({
      body,
      format: rules.notNull(rules.enumValue(NoteFormat)),
      pinned: rules.notNull(z.boolean()),
      userId: rules.userId.nullish(),
      businessCaseId: rules.uuid.nullish(),
      consumerCaseId: rules.uuid.nullish(),
      taskId: rules.uuid.nullish(),
    })
    .refine((note) => [note.businessCaseId, note.consumerCaseId, note.taskId].filter(Boolean).length === 1, {
      message: 'give exactly one of businessCaseId, consumerCaseId, taskId',
    }),
  fields: (t) => ({
    body: t.string({ required: true, description: 'Plain text or Markdown, up to 20000 characters.' }),
    format: t.field({ type: NoteFormatEnum, description: 'Default PLAIN.' }),
    pinned: t.boolean({ description: 'Default false.' }),
    userId: t.string({ description: 'Your identifier of the author; default: the API key\'s label.' }),
    businessCaseId: t.id(),
    consumerCaseId: t.id(),
    taskId: t.id(),
  }),
});

const UpdateNoteInput = builder.inputType('UpdateNoteInput', {
  description: 'Fields to change; a note stays on its record.',
  validate: z.object({ body: rules.notNull(body), format: rules.notNull(rules.enumValue(NoteFormat)), pinned: rules.notNull(z.boolean()) }),
  fields: (t) => ({
    body: t.string(),
    format: t.field({ type: NoteFormatEnum }),
    pinned: t.boolean(),
  }),
});

builder.mutationFields((t) => ({
  createNote: t.prismaField({
    type: Note,
    extensions: costs(NOTE_RENDERING),
    description: 'Writes a note on a case or task of your organization.',
    authScopes: { permission: 'notes:write' },
    args: { input: t.arg({ type: CreateNoteInput, required: true }) },
    resolve: async (query, _root, { input }, { db, apiKey }) => {
      const { userId, body: text, format, pinned, businessCaseId, consumerCaseId, taskId } = input;
      if (businessCaseId) await requireBusinessCase(db, businessCaseId);
      if (consumerCaseId) await requireConsumerCase(db, consumerCaseId);
      if (taskId) await requireTask(db, taskId);
      const bodyHtml = noteHtml(text, format ?? 'PLAIN');
      return db.note.create({
        ...query,
        data: {
          body: text, bodyHtml, author: userId ?? apiKey.name, organizationId: apiKey.organizationId,
          ...(format ? { format } : {}), ...(pinned != null ? { pinned } : {}),
          businessCaseId, consumerCaseId, taskId,
        },
      });
    },
  }),
  updateNote: t.prismaField({
    type: Note,
    extensions: costs(NOTE_RENDERING),
    description: 'Changes the body, format or pin of a note.',
    authScopes: { permission: 'notes:write' },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateNoteInput, required: true }) },
    resolve: async (query, _root, { id, input }, { db }) => {
      const note = await findOr404('Note', id, (uuid) => db.note.findUnique({ where: { id: uuid }, select: { body: true, format: true } }));
      if (input.body == null && input.format == null && input.pinned == null) throw invalidInput('give at least one of body, format, pinned');
      // A new body or format is rendered here, once; a pin leaves the stored HTML as it is.
      const rendered = input.body || input.format ? { bodyHtml: noteHtml(input.body || note.body, input.format ?? note.format) } : {};
      return db.note.update({
        ...query,
        where: { id },
        data: { ...(input.body ? { body: input.body } : {}), ...(input.format ? { format: input.format } : {}), ...(input.pinned != null ? { pinned: input.pinned } : {}), ...rendered },
      });
    },
  }),
  deleteNote: t.prismaField({
    type: Note,
    description: 'Deletes a note and returns it as it was.',
    authScopes: { permission: 'notes:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireNote(db, id);
      return db.note.delete({ ...query, where: { id } });
    },
  }),
}));
