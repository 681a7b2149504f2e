import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { AgentChecks } from '../../core/services/checks/agent-checks.ts';
import { callContext, policyOf, scanWorkspaceOf } from '../call-context.ts';
import { answerOf, type CheckOutcome, parsePreToolUse } from '../integrations/claude-code.ts';
import { requireAgentChecks, requireKey } from '../middleware/auth.ts';
import { asHttpError } from '../middleware/error-handler.ts';
import { jsonBody } from '../middleware/json-body.ts';

const CLAUDE_CODE_PRE_TOOL_USE = '/integrations/claude-code/pre-tool-use';

/** Endpoints shaped for a particular agent runtime; each one is a thin mapping onto the guardrail checks. */
export function integrationRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const checks = app.container.resolve(AgentChecks);
  const router = new Router();

  router.post(
    CLAUDE_CODE_PRE_TOOL_USE,
    requireKey(knex, ['admin', 'agent']),
    requireAgentChecks,
    jsonBody(app.config),
    async (ctx) => {
      const hook = parsePreToolUse(ctx.request.body);
      const call = callContext(ctx, `POST ${CLAUDE_CODE_PRE_TOOL_USE}`);
      const outcomes: CheckOutcome[] = [
        await checks.guardrail({ kind: 'tool_call', input: hook.toolCall }, call, policyOf(ctx), scanWorkspaceOf(ctx)),
      ];
      if (hook.url) {
        try {
          outcomes.push(await checks.action({ url: hook.url, intent: 'visit', depth: 'fast' }, call, policyOf(ctx)));
        } catch (err) {
          // A URL the action check refuses (it does not parse, or is too long) leaves the tool-call verdict alone.
          if (asHttpError(err)?.status !== 400) throw err;
        }
      }
      const { answer, winner } = answerOf(outcomes);
      ctx.set('X-Preflight-Decision', winner.agent_decision);
      ctx.set('X-Preflight-Decision-Id', winner.decision.id);
      ctx.body = answer;
    },
  );

  return router;
}
