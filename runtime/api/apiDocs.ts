// The API reference's parameter tables (docs/api.md), rendered as markdown from the OpenAPI document, which is built
// from the endpoint table: the reference shows what the parser enforces and cannot drift from it.
import { openapiDocument } from './openapi.js';

interface QueryParameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
  example?: unknown;
}

interface Operation {
  parameters?: QueryParameter[];
  responses?: Record<string, unknown>;
}

/** Paths of the document that are not endpoints: the document itself and the catch-all 404. */
const NOT_ENDPOINTS = new Set(['/openapi.json', '/{path}']);

const BLOCK = /<!-- params: (\S+) -->\n[\s\S]*?<!-- \/params -->/g;

/** A markdown table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

const code = (value: unknown) => `\`${String(value)}\``;

/** What a parameter's schema admits, in words. */
function admits(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map(code).join(' or ');
  const parts: string[] = [schema.type === 'string' ? 'text' : String(schema.type)];
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`);
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`${schema.minLength ?? 0} to ${schema.maxLength} characters`);
  if (schema.pattern !== undefined) parts.push(`matching ${code(schema.pattern)}`);
  return parts.join(', ');
}

/** The markdown table of one operation's query parameters. */
function table(operation: Operation): string {
  const rows = (operation.parameters ?? []).filter((p) => p.in === 'query');
  if (rows.length === 0) return 'No parameters.';
  return [
    '| parameter | required | value | default | example | description |',
    '|---|---|---|---|---|---|',
    ...rows.map((p) => {
      const cells = [
        code(p.name),
        p.required ? 'yes' : 'no',
        admits(p.schema),
        p.schema.default === undefined ? '' : code(p.schema.default),
        p.example === undefined ? '' : code(p.example),
        p.description ?? '',
      ];
      return `| ${cells.map(cell).join(' | ')} |`;
    }),
  ].join('\n');
}

/** Each endpoint's path → the markdown table of its query parameters: those of its answered method (GET, or POST). */
export function paramTables(document: Record<string, unknown> = openapiDocument()): Map<string, string> {
  const paths = document.paths as Record<string, { get?: Operation; post?: Operation }>;
  return new Map(
    Object.entries(paths)
      .filter(([path]) => !NOT_ENDPOINTS.has(path))
      .map(([path, item]) => [path, table([item.get, item.post].find((o) => o?.responses?.['200']) ?? {})]),
  );
}

/** The generated blocks of a document: each `<!-- params: PATH -->` marker's path → the text up to `<!-- /params -->`. */
export function paramBlocks(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const m of text.matchAll(BLOCK)) {
    if (blocks.has(m[1])) throw new Error(`two parameter blocks for ${m[1]}`);
    blocks.set(m[1], m[0].slice(m[0].indexOf('\n') + 1, -'<!-- /params -->'.length).trimEnd());
  }
  const opened = text.match(/<!-- params: /g)?.length ?? 0;
  if (opened !== blocks.size) throw new Error('a `<!-- params: PATH -->` marker has no `<!-- /params -->` after it');
  return blocks;
}

/** `text` with every generated block replaced by its endpoint's table; a block naming no endpoint is an error. */
export function rewriteParamBlocks(text: string, tables: Map<string, string> = paramTables()): string {
  paramBlocks(text);
  return text.replace(BLOCK, (_, path: string) => {
    const generated = tables.get(path);
    if (generated === undefined) throw new Error(`no endpoint ${path} (a parameter block names it)`);
    return `<!-- params: ${path} -->\n${generated}\n<!-- /params -->`;
  });
}
