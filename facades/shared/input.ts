import { z } from 'zod';
import { Validation, type FieldErrors } from '../../src/domain/errors';

/**
 * Wire-shape parsing for REST inputs. Query strings and multipart fields arrive as text, JSON bodies as
 * typed values: both are accepted and turned into typed variables, or a 422 naming the field.
 * Business rules (lengths, ranges, existence) live below the schema.
 */
const label = (field: string) => field.replace(/_/g, ' ').replace(/\[\]$/, '');

export const integer = (field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ required_error: `The ${label(field)} field is required.`, invalid_type_error: `The ${label(field)} must be an integer.` })
      .int(`The ${label(field)} must be an integer.`)
      .max(2_147_483_647, `The ${label(field)} must be an integer.`)
      .min(-2_147_483_648, `The ${label(field)} must be an integer.`),
  );

export const text = (field: string) =>
  z.string({ required_error: `The ${label(field)} field is required.`, invalid_type_error: `The ${label(field)} must be a string.` });

export const bool = (field: string) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const s = v.trim().toLowerCase();
      if (['true', '1'].includes(s)) return true;
      if (['false', '0'].includes(s)) return false;
      return v;
    },
    z.boolean({ invalid_type_error: `The ${label(field)} field must be true or false.` }),
  );

export const stringList = (field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? [v] : v),
    z.array(text(field), { invalid_type_error: `The ${label(field)} must be an array.` }).max(100, `The ${label(field)} may not have more than 100 items.`),
  );

/** Parses or throws a 422 with one entry per offending field. */
export function parseInput<S extends z.ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'body';
    const list = (fields[key] ??= []);
    // One value can break two rules that say the same (a 15,000-digit page is neither an integer nor in range).
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  throw new Validation(fields);
}

/** Missing values stay `undefined`; an empty multipart field counts as not sent. */
export function presentOnly<T extends Record<string, unknown>>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined && v !== '') out[k] = v;
  return out as T;
}
