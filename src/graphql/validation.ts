import { ValidateBy, validate, type ValidationError, type ValidationOptions } from 'class-validator';
import { Validation, type FieldErrors } from '../domain/errors';
import { charCount } from '../domain/limits';

/** GraphQL input names are camelCase; field errors use the interface's snake_case names. */
export const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function collect(errors: ValidationError[], into: FieldErrors): void {
  for (const e of errors) {
    if (e.constraints) {
      const key = snake(e.property);
      into[key] = [...(into[key] ?? []), ...Object.values(e.constraints)];
    }
    if (e.children?.length) collect(e.children, into);
  }
}

/** type-graphql `validateFn`: class-validator on every input object, failures as a domain Validation error. */
export async function validateArg(value: unknown): Promise<void> {
  if (value === null || typeof value !== 'object') return;
  const items = Array.isArray(value) ? value : [value];
  const fields: FieldErrors = {};
  for (const item of items) {
    if (item && typeof item === 'object') collect(await validate(item as object, { forbidUnknownValues: false }), fields);
  }
  if (Object.keys(fields).length) throw new Validation(fields);
}

/** Laravel-style messages, so REST clients of the former API read familiar text. */
export const msg = {
  max: (field: string, n: number) => ({ message: `The ${field} may not be greater than ${n} characters.` }),
  between: (field: string, a: number, b: number) => ({ message: `The ${field} must be between ${a} and ${b}.` }),
  min: (field: string, n: number) => ({ message: `The ${field} must be at least ${n}.` }),
  date: (field: string) => ({ message: `The ${field} does not match the format Y-m-d.` }),
  required: (field: string) => ({ message: `The ${field} field is required.` }),
};

export function MaxChars(max: number, field: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'maxChars', validator: { validate: (v: unknown) => typeof v !== 'string' || charCount(v) <= max } },
    { message: `The ${field} may not be greater than ${max} characters.`, ...options },
  );
}
