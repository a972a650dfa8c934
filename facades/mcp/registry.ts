import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Principal } from '../../src/domain/principal';
import { refusal } from './permissions';
import { ErrorCodes, McpError } from './protocol';
import type { AnyTool } from './tool';

interface Registered {
  tool: AnyTool;
  validate: ValidateFunction;
}

/**
 * The tools of one server: each input schema compiled once with Ajv, exactly as published (no type coercion, no
 * extra properties, defaults filled in), so what `tools/list` tells a model is what `tools/call` enforces.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Registered>();

  constructor(tools: readonly AnyTool[]) {
    const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: true, strictRequired: true });
    addFormats(ajv, ['date', 'date-time']);
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`Two MCP tools are named ${tool.name}`);
      this.tools.set(tool.name, { tool, validate: ajv.compile(tool.inputSchema) });
    }
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name)?.tool;
  }

  /** What `tools/list` shows this caller: the tools it may call (abilities, permissions, tenant ownership). */
  visibleTo(p: Principal): AnyTool[] {
    return [...this.tools.values()].map((r) => r.tool).filter((t) => refusal(p, gate(t)) === null);
  }

  /** A validated copy of the arguments with the published defaults applied, or -32602 naming every problem. */
  validate(tool: AnyTool, args: unknown): Record<string, unknown> {
    const registered = this.tools.get(tool.name)!;
    const copy = structuredClone(args ?? {}) as Record<string, unknown>;
    if (registered.validate(copy)) return copy;
    const errors = fieldErrors(registered.validate.errors ?? []);
    const first = Object.entries(errors)[0];
    throw new McpError(ErrorCodes.INVALID_PARAMS, first ? `Invalid arguments for ${tool.name}: ${first[1][0]}` : `Invalid arguments for ${tool.name}.`, {
      reason: 'invalid_arguments',
      errors,
    });
  }
}

export const gate = (t: AnyTool) => ({ name: t.name, permission: t.permission, writes: t.writes === true, tenantOwnerOnly: t.tenantOwnerOnly === true });

/** Ajv's findings as `{argument: [message]}`, in words a model can act on. */
function fieldErrors(errors: ErrorObject[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    const list = (out[field || 'arguments'] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const e of errors) {
    const field = e.instancePath.replace(/^\//, '').split('/')[0];
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'additionalProperties':
        add(String(params.additionalProperty), `Unknown argument "${String(params.additionalProperty)}".`);
        break;
      case 'required':
        add(String(params.missingProperty), `The ${String(params.missingProperty)} argument is required.`);
        break;
      case 'dependencies':
        add(field || String(params.property), `${String(params.property)} requires ${String(params.missingProperty)}.`);
        break;
      case 'enum':
        add(field, `${field} must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`);
        break;
      case 'format':
        add(field, `${field} must be a valid ${params.format === 'date' ? 'date (YYYY-MM-DD)' : 'ISO 8601 date-time'}.`);
        break;
      default:
        add(field, `${field || 'arguments'}${e.instancePath.split('/').length > 2 ? ' items' : ''} ${e.message ?? 'is invalid'}.`);
    }
  }
  return out;
}
