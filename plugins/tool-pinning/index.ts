import { defineDetector, type Finding, type PluginModule, stringLeaves } from '../../core/plugin-api.ts';
import { screenText } from '../prompt-injection/screen.ts';
import { toolPoisoningCues } from './poisoning-cues.ts';
import weights from './weights.json' with { type: 'json' };

export interface ToolDescriptionFinding {
  category: string;
  marker: string;
  /** `description`, or the JSON path of a string inside the input schema (`input_schema.properties.a.description`). */
  field: string;
}

/**
 * MCP tool pinning. The check pins each (server, tool)'s definition per workspace (core/services/tool-pins); this detector
 * turns the comparison into flags and screens the definition itself for instructions aimed at the model, since a
 * tool description is read by the model as trusted context ("tool poisoning").
 */
const detector = defineDetector({
  meta: {
    id: 'tool-pinning',
    version: '1.0.0',
    description:
      'MCP tool definitions: first sight, silent changes after pinning (rug pulls) and instructions hidden in descriptions.',
    surfaces: ['agent_tool_call'],
    flags: {
      'agent:tool_first_seen': {
        description: 'First sight of this MCP tool definition in the workspace; it is now pinned.',
        evidenceOnly: true,
        extension: true,
      },
      'agent:tool_definition_changed': {
        description: 'The tool description or input schema differs from the pinned definition and is not approved.',
        extension: true,
      },
      'agent:tool_description_injection': {
        description:
          'The tool description or schema carries instructions aimed at the model, and no admin approved it.',
        extension: true,
      },
    },
    timeoutMs: 2_000,
  },
  deps: {},
  create: () => ({
    detect(ctx) {
      const tool = ctx.tool;
      if (!tool) return { findings: [] };
      const findings: Finding[] = [];
      if (tool.pin.status === 'first_seen') {
        findings.push({ flag: 'agent:tool_first_seen', detail: `${label(tool)} seen for the first time; pinned` });
      }
      if (tool.pin.status === 'changed') {
        findings.push({
          flag: 'agent:tool_definition_changed',
          detail: `${label(tool)}: ${tool.pin.changed.join(' and ')} changed since it was pinned`,
          evidence: { changed: tool.pin.changed },
        });
      }
      const described = screenDefinition(tool.description, tool.input_schema);
      if (described.length > 0 && !tool.pin.admin_approved) {
        for (const f of described.slice(0, 5)) {
          findings.push({
            flag: 'agent:tool_description_injection',
            detail: `${f.field}: ${f.category}: "${f.marker}"`,
            evidence: { ...f },
          });
        }
      }
      return { findings, data: { description_findings: described } };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights, provides: { toolDefinition: true } };

function label(tool: { name: string; server: string }): string {
  return tool.server ? `${tool.server}/${tool.name}` : tool.name;
}

/** The description and every string in the input schema, through the injection screen and the poisoning cues. */
export function screenDefinition(
  description?: string,
  inputSchema?: Record<string, unknown>,
): ToolDescriptionFinding[] {
  const texts: [string, string][] = [];
  if (description) texts.push(['description', description]);
  if (inputSchema) {
    for (const [path, text] of stringLeaves(inputSchema).leaves) texts.push([`input_schema${path.slice(1)}`, text]);
  }
  const out: ToolDescriptionFinding[] = [];
  for (const [field, text] of texts) {
    for (const f of screenText(text).findings) out.push({ category: f.category, marker: f.marker, field });
    for (const f of toolPoisoningCues(text)) out.push({ ...f, field });
  }
  return out;
}
