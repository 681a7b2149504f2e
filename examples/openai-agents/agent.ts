// Runnable example: an agent whose email tool is guarded by Preflight.
//   PREFLIGHT_URL=http://127.0.0.1:8080 PREFLIGHT_API_KEY=pf_… OPENAI_API_KEY=sk-… \
//     node --import tsx examples/openai-agents/agent.ts "Send Bob the quarterly numbers"
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';
import { PreflightClient } from '../../client/index.ts';
import { preflightToolGuardrail } from './preflight-tool-guardrail.ts';

const preflight = new PreflightClient({
  baseUrl: process.env.PREFLIGHT_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.PREFLIGHT_API_KEY ?? '',
  actor: 'openai-agents-example',
});

export const sendEmail = tool({
  name: 'send_email',
  description: 'Send an email on behalf of the user.',
  parameters: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
  inputGuardrails: [preflightToolGuardrail(preflight)],
  execute: async ({ to, subject }) => `sent "${subject}" to ${to}`,
});

export const assistant = new Agent({
  name: 'Assistant',
  instructions: 'You help the user with email.',
  tools: [sendEmail],
});

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.env.OPENAI_API_KEY || !process.env.PREFLIGHT_API_KEY) {
    console.error('Set OPENAI_API_KEY and PREFLIGHT_API_KEY (and PREFLIGHT_URL) to run this example.');
    process.exit(2);
  }
  const result = await run(assistant, process.argv[2] ?? 'Email bob@example.com a short hello.');
  console.log(result.finalOutput);
}
