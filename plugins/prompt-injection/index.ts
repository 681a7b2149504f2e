import { type AgentScreenFinding, defineDetector, InjectionRules, type PluginModule } from '../../core/plugin-api.ts';
import type { PatternRules } from './pattern-rules.ts';
import { shippedModel } from './scorer/shipped.ts';
import { checkScreenRules, type InjectionFinding, learnedScreen, screenText } from './screen.ts';
import weights from './weights.json' with { type: 'json' };

const detector = defineDetector({
  meta: {
    id: 'prompt-injection',
    version: '1.0.0',
    description:
      'Learned scorer and pattern screen for instructions aimed at an AI agent in retrieved content, prompts and tool arguments.',
    surfaces: ['agent_content', 'agent_action', 'agent_tool_call'],
    flags: {
      'agent:injected_instructions': { description: 'Instruction-override or tool-hijack wording aimed at the agent.' },
      'agent:credential_lure_for_agents': {
        description: 'Tries to make the agent reveal secrets, tokens or session cookies.',
      },
      'agent:unsafe_execution_lure': {
        description: 'Pushes the agent to run a script or connect an unsanctioned tool.',
      },
      'agent:hidden_text': { description: 'Instructions hidden in markup or invisible text.' },
    },
    timeoutMs: 2_000,
  },
  deps: { rules: InjectionRules },
  create: ({ deps }) => {
    const { model, sha256 } = shippedModel();
    // Thresholds mean something only for the weights they were picked on: a retrained model needs new ones.
    if (deps.rules.model_sha256 !== sha256) {
      throw new Error(
        `rules/injection.json: thresholds were chosen for model ${deps.rules.model_sha256.slice(0, 12)}…, the shipped model is ${sha256.slice(0, 12)}…; run npm run train:injection`,
      );
    }
    const learned = learnedScreen(model, deps.rules);
    const rules: PatternRules = { severities: deps.rules.severities, weights: deps.rules.weights };
    checkScreenRules(rules);
    return {
      detect(ctx) {
        const inputs = ctx.texts ?? (ctx.text !== undefined ? { content: ctx.text } : {});
        const findings: AgentScreenFinding[] = [];
        let severity: 'none' | 'low' | 'high' = 'none';
        for (const [field, text] of Object.entries(inputs)) {
          const result = screenText(text, { learned, rules });
          if (result.severity === 'high' || (result.severity === 'low' && severity === 'none'))
            severity = result.severity;
          for (const f of result.findings as InjectionFinding[]) findings.push({ ...f, field });
        }
        return {
          findings: findings.map((f) => ({
            flag: f.flag,
            detail: `${f.category}: "${f.marker}"`,
            evidence: { category: f.category, marker: f.marker, severity: f.severity, field: f.field },
          })),
          data: { severity, findings },
        };
      },
    };
  },
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights, provides: { agentScreen: true } };
