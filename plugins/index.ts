// The plugin list: one explicit import per detector, sorted by id, so a diff shows exactly what was added.
import type { PluginModule } from '../core/plugins/registry.ts';
import promptInjection from './prompt-injection/index.ts';
import promptInjectionWeights from './prompt-injection/weights.json' with { type: 'json' };

export const PLUGINS: readonly PluginModule[] = [{ detector: promptInjection, weights: promptInjectionWeights }];
