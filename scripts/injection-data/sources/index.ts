// Every source of the build, in the order that decides which copy of a duplicate text is kept.
import type { Source } from '../source.ts';
import { syntheticBenign, syntheticDirect, syntheticIndirect, syntheticObfuscated } from '../synthetic.ts';
import { syntheticBenignMore, syntheticParaphrasesMore } from '../synthetic-compose-more.ts';
import { syntheticParaphrases, syntheticPrompts, syntheticToolOutputs } from '../synthetic-extra.ts';
import { syntheticFormalInstructions } from '../synthetic-formal.ts';
import { syntheticFramedRequests } from '../synthetic-framed.ts';
import { syntheticMailExfiltration, syntheticMailRequests } from '../synthetic-mail-requests.ts';
import { syntheticBenignOutput, syntheticOutputHijack } from '../synthetic-output.ts';
import { syntheticPersonaPrompts } from '../synthetic-personas.ts';
import { syntheticRolePrompts } from '../synthetic-roles.ts';
import { syntheticTaskContinue, syntheticTaskSwitch } from '../synthetic-switch.ts';
import {
  deepsetInjections,
  gptfuzz,
  greshakePuzzles,
  jailbreakBench,
  pallms,
  promptmap,
  taksec,
} from './attack-repos.ts';
import { emailAgentAttacks, emailAgentInbox, promptExtraction, xsafetyGoalHijacking } from './attack-repos-more.ts';
import { articlePages, awesomePrompts, promptsZh, selfInstruct, tldr, webPages } from './benign-repos.ts';
import {
  basedCooking,
  codeFiles,
  emailFixtures,
  emailReplies,
  fuzzyBenign,
  nodejsSite,
  reactDocsSources,
  xstestSafe,
} from './docs-repos.ts';

export const SOURCES: Source[] = [
  // benign, from public repositories
  tldr,
  awesomePrompts,
  promptsZh,
  selfInstruct,
  articlePages,
  webPages,
  ...reactDocsSources,
  nodejsSite,
  basedCooking,
  emailFixtures,
  emailReplies,
  fuzzyBenign,
  codeFiles,
  xstestSafe,
  // attacks, from public repositories
  gptfuzz,
  taksec,
  promptmap,
  greshakePuzzles,
  deepsetInjections,
  pallms,
  jailbreakBench,
  // generated in this repository
  syntheticDirect,
  syntheticObfuscated,
  syntheticIndirect,
  syntheticBenign,
  syntheticToolOutputs,
  syntheticPrompts,
  syntheticParaphrases,
  syntheticParaphrasesMore,
  syntheticBenignMore,
  syntheticRolePrompts,
  syntheticOutputHijack,
  syntheticBenignOutput,
  // the seventh wave (last, so that no earlier record or duplicate choice moves)
  xsafetyGoalHijacking,
  promptExtraction,
  emailAgentAttacks,
  emailAgentInbox,
  // the eighth wave: look-alikes the seventh needed, and polite exfiltration mails
  syntheticPersonaPrompts,
  syntheticMailExfiltration,
  syntheticMailRequests,
  syntheticFramedRequests,
  // the ninth wave: formal-register look-alikes
  syntheticFormalInstructions,
  // the tenth wave: task switches after praise, with their benign twin
  syntheticTaskSwitch,
  syntheticTaskContinue,
];
