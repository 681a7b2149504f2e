import { BrandCatalog, defineDetector, HostingCatalog, type PluginModule } from '../../core/plugin-api.ts';
import { isScorable } from './gate.ts';
import { scoreUrl, shippedModel } from './model.ts';
import weights from './weights.json' with { type: 'json' };

export interface UrlModelConfig {
  /** Score from which `url:learned_phishing_likelihood` fires (rules/detectors.json names it in the ruleset hash). */
  threshold: number;
}

/**
 * Set on the validation split by scripts/train-url.ts (its `very_likely` suggestion: at most 0.02 % of validation
 * benign URLs reach it; plugins/url-model/DATA.md). A deployment tunes it in rules/detectors.json.
 */
export const DEFAULT_URL_MODEL_CONFIG: UrlModelConfig = { threshold: 0.993 };

const detector = defineDetector<{ brands: BrandCatalog; hosting: HostingCatalog }, UrlModelConfig>({
  meta: {
    id: 'url-model',
    version: '1.0.0',
    description:
      'Learned URL scorer: logistic regression over hashed lexical features of the URL (host words and trigrams, TLD, digits, hyphens, entropy, brand words off the brand’s domains, free-hosting tenancy, path words). Brand-owned and popular sites are never scored.',
    surfaces: ['agent_action'],
    // On agent_action detect() reads only the URL (and page text) with immutable catalogs: its output may be reused.
    deterministicOn: ['agent_action'],
    flags: {
      'url:learned_phishing_likelihood': {
        description:
          'The learned URL scorer rates the address as likely phishing (score at or above the configured threshold).',
        extension: true,
      },
    },
    configSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['threshold'],
      properties: { threshold: { type: 'number', exclusiveMinimum: 0, maximum: 1 } },
    },
    defaultConfig: DEFAULT_URL_MODEL_CONFIG,
    bestEffort: true,
    timeoutMs: 200,
  },
  deps: { brands: BrandCatalog, hosting: HostingCatalog },
  create: ({ deps, config }) => {
    const model = shippedModel();
    return {
      detect(ctx) {
        const target = ctx.target;
        if (!target || !isScorable(target, deps)) return { findings: [] };
        const { score, top_features } = scoreUrl(target, deps, model);
        const data = { learned_url_score: Number(score.toFixed(4)), threshold: config.threshold, top_features };
        if (score < config.threshold) return { findings: [], data };
        return {
          findings: [
            {
              flag: 'url:learned_phishing_likelihood',
              detail: `The learned URL scorer rates ${target.host} ${score.toFixed(4)} (threshold ${config.threshold}); strongest cues: ${top_features.join(', ')}`,
              evidence: data,
            },
          ],
          data,
        };
      },
    };
  },
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
