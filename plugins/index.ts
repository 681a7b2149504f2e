// The plugin list: one explicit import per detector, sorted by id, so a diff shows exactly what was added.
// `provides` names a role core reads a plugin's output in (core/pipeline/plugin-catalog.ts), never its id.
import type { PluginModule } from '../core/plugin-api.ts';
import brand from './brand/index.ts';
import brandWeights from './brand/weights.json' with { type: 'json' };
import campaign from './campaign/index.ts';
import campaignWeights from './campaign/weights.json' with { type: 'json' };
import content from './content/index.ts';
import contentWeights from './content/weights.json' with { type: 'json' };
import ct from './ct/index.ts';
import ctWeights from './ct/weights.json' with { type: 'json' };
import email from './email/index.ts';
import emailWeights from './email/weights.json' with { type: 'json' };
import history from './history/index.ts';
import historyWeights from './history/weights.json' with { type: 'json' };
import infrastructure from './infrastructure/index.ts';
import infrastructureWeights from './infrastructure/weights.json' with { type: 'json' };
import oauth from './oauth/index.ts';
import oauthWeights from './oauth/weights.json' with { type: 'json' };
import promptInjection from './prompt-injection/index.ts';
import promptInjectionWeights from './prompt-injection/weights.json' with { type: 'json' };
import ssl from './ssl/index.ts';
import sslWeights from './ssl/weights.json' with { type: 'json' };
import toolPinning from './tool-pinning/index.ts';
import toolPinningWeights from './tool-pinning/weights.json' with { type: 'json' };
import urlModel from './url-model/index.ts';
import urlModelWeights from './url-model/weights.json' with { type: 'json' };
import whois from './whois/index.ts';
import whoisWeights from './whois/weights.json' with { type: 'json' };

export const PLUGINS: readonly PluginModule[] = [
  { detector: brand, weights: brandWeights },
  { detector: campaign, weights: campaignWeights, provides: { featureFlag: 'campaign_tagging' } },
  { detector: content, weights: contentWeights },
  { detector: ct, weights: ctWeights },
  { detector: email, weights: emailWeights },
  { detector: history, weights: historyWeights },
  { detector: infrastructure, weights: infrastructureWeights },
  { detector: oauth, weights: oauthWeights, provides: { scoredResult: 'oauth_scope' } },
  { detector: promptInjection, weights: promptInjectionWeights, provides: { agentScreen: true } },
  { detector: ssl, weights: sslWeights },
  { detector: toolPinning, weights: toolPinningWeights, provides: { toolDefinition: true } },
  { detector: urlModel, weights: urlModelWeights },
  { detector: whois, weights: whoisWeights },
];
