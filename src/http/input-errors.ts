import { type DocumentNode, type GraphQLSchema, isEnumType, visit } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError, invalidInput } from '../errors.ts';

// graphql-js reports bad variables in its own words ('Variable "$input" got
// invalid value 5 at "input.email"; String cannot represent a non string
// value: 5'). Clients of a compliance API want "email: must be a string".
const VARIABLE_ERROR = /^Variable "\$(\w+)" (?:got invalid value .*?(?: at "([^"]+)")?; |of required type "[^"]+" was not provided\.$|of non-null type "[^"]+" must not be null\.$)([\s\S]*)$/;

const REASONS: Array<[RegExp, (match: RegExpMatchArray, schema: GraphQLSchema) => { field?: string; reason: string }]> = [
  [/^Field "(\w+)" is not defined by type "\w+"\.(?: Did you mean (.+)\?)?$/, (m) => ({
    field: m[1],
    reason: m[2] ? `is not a known field (did you mean ${m[2]}?)` : 'is not a known field',
  })],
  [/^Field "(\w+)" of required type "[^"]+" was not provided\.$/, (m) => ({ field: m[1], reason: 'is required' })],
  [/^Expected non-nullable type "[^"]+" not to be null\.$/, () => ({ reason: 'must not be null' })],
  [/^Value "[^"]*" does not exist in "(\w+)" enum\./, (m, schema) => {
    const type = schema.getType(m[1] ?? '');
    const values = isEnumType(type) ? type.getValues().map((v) => v.name).join(', ') : '';
    return { reason: `must be one of ${values}` };
  }],
  [/^Enum "(\w+)" cannot represent non-string value/, (m, schema) => {
    const type = schema.getType(m[1] ?? '');
    const values = isEnumType(type) ? type.getValues().map((v) => v.name).join(', ') : '';
    return { reason: `must be one of ${values}` };
  }],
  [/^(?:String|ID) cannot represent/, () => ({ reason: 'must be a string' })],
  [/^Int cannot represent/, () => ({ reason: 'must be an integer' })],
  [/^Float cannot represent/, () => ({ reason: 'must be a number' })],
  [/^Boolean cannot represent/, () => ({ reason: 'must be a boolean' })],
  [/^Expected type "\w+" to be an object\.$/, () => ({ reason: 'must be an object' })],
];

/** "email: must be a string" for a variable coercion error, or null if `message` is not one. */
export function describeVariableError(message: string, schema: GraphQLSchema): string | null {
  const match = VARIABLE_ERROR.exec(message);
  if (!match) return null;
  const [, variable, at, detail = ''] = match;
  // `at "input.address.city"`: drop the variable name when it is an input wrapper.
  const pathParts = (at ?? variable ?? '').split('.').filter((part, index) => !(index === 0 && part === 'input'));
  if (!detail) {
    return `${pathParts.join('.') || variable}: ${message.includes('must not be null') ? 'must not be null' : 'is required'}`;
  }
  for (const [pattern, explain] of REASONS) {
    const reasonMatch = detail.match(pattern);
    if (reasonMatch) {
      const { field, reason } = explain(reasonMatch, schema);
      const path = [...pathParts, ...(field ? [field] : [])].join('.');
      return path ? `${path}: ${reason}` : reason;
    }
  }
  const path = pathParts.join('.');
  return path ? `${path}: ${detail}` : detail;
}

/** Why a string cannot be stored as text: PostgreSQL refuses NUL, and an unpaired surrogate is not Unicode. */
function textProblem(value: string): string | null {
  if (value.includes('\0')) return 'must not contain NUL characters';
  if (/\p{Cs}/u.test(value)) return 'must be valid Unicode (it has an unpaired surrogate)';
  return null;
}

/** "title: must not contain NUL characters" for the first bad string in parsed JSON (variables), else null. */
function variableTextProblem(value: unknown, path: string[]): string | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    // `input` wraps REST bodies and says nothing to the client (as in describeVariableError).
    const field = path.filter((part, index) => !(index === 0 && part === 'input')).join('.');
    return problem && (field ? `${field}: ${problem}` : problem);
  }
  // Only JSON values: uploads and other objects are not text.
  const plain = Array.isArray(value) || (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value)));
  if (!plain) return null;
  for (const [key, item] of Object.entries(value as object)) {
    const problem = variableTextProblem(item, [...path, key]);
    if (problem) return problem;
  }
  return null;
}

// Parsed documents are cached and reused (yoga's parser cache, REST's saved operations): each is looked at once.
const documentProblems = new WeakMap<DocumentNode, string | null>();

/** "A string in the document must not contain NUL characters" for the first bad string literal, else null. */
function documentTextProblem(document: DocumentNode): string | null {
  let problem = documentProblems.get(document);
  if (problem === undefined) {
    problem = null;
    visit(document, {
      StringValue(node) {
        const found = textProblem(node.value);
        problem ??= found && `A string in the document ${found}`;
      },
    });
    documentProblems.set(document, problem);
  }
  return problem;
}

/**
 * Refuses input that would otherwise fail deep inside (500s): text that
 * PostgreSQL cannot store (NUL, unpaired surrogates) in variables or string
 * literals, and documents nested too deeply to parse. Covers REST too, whose
 * routes run through this pipeline.
 */
export function useInputChecks(): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, options);
        } catch (error) {
          if (error instanceof RangeError) throw new AppError('BAD_REQUEST', 'Syntax Error: the document is nested too deeply');
          throw error;
        }
      });
    },
    onExecute({ args }) {
      const problem = variableTextProblem(args.variableValues ?? {}, []) ?? documentTextProblem(args.document);
      if (problem) throw invalidInput(problem);
    },
  };
}
