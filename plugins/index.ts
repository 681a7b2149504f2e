// The plugin list: one explicit import per detector, sorted by id, so a diff shows exactly what was added.
import type { PluginModule } from '../core/plugins/registry.ts';
import brand from './brand/index.ts';
import brandWeights from './brand/weights.json' with { type: 'json' };
import infrastructure from './infrastructure/index.ts';
import infrastructureWeights from './infrastructure/weights.json' with { type: 'json' };
import oauth from './oauth/index.ts';
import oauthWeights from './oauth/weights.json' with { type: 'json' };
import promptInjection from './prompt-injection/index.ts';
import promptInjectionWeights from './prompt-injection/weights.json' with { type: 'json' };

export const PLUGINS: readonly PluginModule[] = [
  { detector: brand, weights: brandWeights },
  { detector: infrastructure, weights: infrastructureWeights },
  { detector: oauth, weights: oauthWeights },
  { detector: promptInjection, weights: promptInjectionWeights },
];
