import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { badRequest } from '../errors.ts';

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats.default(ajv);

/**
 * ajv's allErrors reports one error per offending key: a body of a million unknown keys would be echoed back as a
 * response many times its own size. Only the first few are described and returned, with the total count.
 */
export const MAX_REPORTED_ERRORS = 10;

const clip = (s: string, max = 100) => (s.length > max ? `${s.slice(0, max)}…` : s);

function describe(errors: ErrorObject[]): string {
  const shown = errors
    .slice(0, MAX_REPORTED_ERRORS)
    .map((e) => {
      const where = e.instancePath ? clip(e.instancePath.slice(1).replace(/\//g, '.')) : 'body';
      if (e.keyword === 'required') return `${(e.params as { missingProperty: string }).missingProperty} is required`;
      if (e.keyword === 'additionalProperties') {
        return `${where}: unknown field ${clip((e.params as { additionalProperty: string }).additionalProperty)}`;
      }
      if (e.keyword === 'enum') {
        return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
      }
      return `${where} ${e.message}`;
    })
    .join('; ');
  const more = errors.length - MAX_REPORTED_ERRORS;
  return more > 0 ? `${shown}; and ${more} more error${more === 1 ? '' : 's'}` : shown;
}

/** The details of a 400: the first errors (each value echoed at most 200 characters) and how many there were. */
export function cappedErrors(errors: ErrorObject[]): { errors: ErrorObject[]; error_count: number } {
  return {
    errors: errors.slice(0, MAX_REPORTED_ERRORS).map((e) => ({
      ...e,
      instancePath: clip(e.instancePath, 200),
      params: Object.fromEntries(
        Object.entries(e.params).map(([k, v]) => [k, typeof v === 'string' ? clip(v, 200) : v]),
      ),
    })),
    error_count: errors.length,
  };
}

export function compileBody<T>(schema: object): (body: unknown) => T {
  const validate: ValidateFunction = ajv.compile(schema);
  return (body: unknown) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('Request body must be a JSON object');
    }
    if (!validate(body)) throw badRequest(describe(validate.errors ?? []), cappedErrors(validate.errors ?? []));
    return body as T;
  };
}
