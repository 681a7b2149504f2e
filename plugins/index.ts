// The plugin list: one import and one entry per detector, sorted by id, so a diff shows exactly what was added.
// Each plugin's index.ts exports `plugin`: its detector, its weights.json and any `provides` role core reads its
// output in (core/engine/pipeline/plugin-catalog.ts), never its id.
import type { PluginModule } from '../core/plugin-api.ts';
import { plugin as brand } from './brand/index.ts';
import { plugin as campaign } from './campaign/index.ts';
import { plugin as content } from './content/index.ts';
import { plugin as ct } from './ct/index.ts';
import { plugin as email } from './email/index.ts';
import { plugin as history } from './history/index.ts';
import { plugin as infrastructure } from './infrastructure/index.ts';
import { plugin as oauth } from './oauth/index.ts';
import { plugin as promptInjection } from './prompt-injection/index.ts';
import { plugin as ssl } from './ssl/index.ts';
import { plugin as toolPinning } from './tool-pinning/index.ts';
import { plugin as urlModel } from './url-model/index.ts';
import { plugin as whois } from './whois/index.ts';

export const PLUGINS: readonly PluginModule[] = [
  brand,
  campaign,
  content,
  ct,
  email,
  history,
  infrastructure,
  oauth,
  promptInjection,
  ssl,
  toolPinning,
  urlModel,
  whois,
];
