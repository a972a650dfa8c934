import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/**
 * zod with `.openapi()` (name, description, examples): the wire schemas of the REST facades are declared with it, so
 * the OpenAPI documents (facades/rest/openapi.ts) are generated from the very schemas that parse requests and type
 * responses. Import `z` from here in any module that declares a wire schema.
 */
extendZodWithOpenApi(z);

export { z };

/** An ISO 8601 UTC timestamp as the APIs write them. */
export const timestamp = () => z.string().openapi({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' });
/** A calendar date, `Y-m-d`. */
export const date = () => z.string().openapi({ format: 'date', example: '2026-11-24' });
export const url = () => z.string().openapi({ format: 'uri' });
export const uuid = () => z.string().openapi({ format: 'uuid' });
