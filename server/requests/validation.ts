import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { badRequest } from '../errors.ts';

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats.default(ajv);

function describe(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'body';
      if (e.keyword === 'required') return `${(e.params as { missingProperty: string }).missingProperty} is required`;
      if (e.keyword === 'additionalProperties') {
        return `${where}: unknown field ${(e.params as { additionalProperty: string }).additionalProperty}`;
      }
      if (e.keyword === 'enum') {
        return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
      }
      return `${where} ${e.message}`;
    })
    .join('; ');
}

export function compileBody<T>(schema: object): (body: unknown) => T {
  const validate: ValidateFunction = ajv.compile(schema);
  return (body: unknown) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('Request body must be a JSON object');
    }
    if (!validate(body)) throw badRequest(describe(validate.errors ?? []), validate.errors);
    return body as T;
  };
}
