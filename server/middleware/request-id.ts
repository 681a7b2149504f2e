import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';

// Echoed into logs and audit rows: accept only a tame token, otherwise mint our own.
const ACCEPTABLE = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export async function requestId(ctx: Context, next: Next) {
  const given = ctx.get('X-Request-ID');
  const id = given && ACCEPTABLE.test(given) ? given : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-ID', id);
  const actor = ctx.get('X-Actor');
  ctx.state.actor = actor ? actor.slice(0, 200) : null;
  await next();
}
