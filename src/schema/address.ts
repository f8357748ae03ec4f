import { builder } from '../builder.ts';
import type * as rules from '../domain/validation.ts';

export const AddressRef = builder.objectRef<rules.Address>('Address').implement({
  description: 'A postal address; country is ISO 3166-1 alpha-2.',
  fields: (t) => ({
    line1: t.exposeString('line1'),
    line2: t.exposeString('line2', { nullable: true }),
    city: t.exposeString('city'),
    region: t.exposeString('region', { nullable: true }),
    postalCode: t.exposeString('postalCode', { nullable: true }),
    country: t.exposeString('country'),
  }),
});

export const AddressInput = builder.inputType('AddressInput', {
  fields: (t) => ({
    line1: t.string({ required: true }),
    line2: t.string(),
    city: t.string({ required: true }),
    region: t.string({ description: 'State, province or county.' }),
    postalCode: t.string(),
    country: t.string({ required: true, description: 'ISO 3166-1 alpha-2.' }),
  }),
});
