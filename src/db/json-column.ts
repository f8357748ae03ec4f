import { Prisma } from '../generated/prisma/client.ts';

/** A nullable JSON column takes `Prisma.DbNull` to clear; the API's null means "clear". */
export const jsonColumn = <Value>(value: Value | null) => (value === null ? Prisma.DbNull : value);
