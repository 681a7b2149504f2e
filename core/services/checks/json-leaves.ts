const MAX_LEAVES = 2_000;
const MAX_DEPTH = 64;
// Keys are screened only when they read like prose: short identifiers cannot carry an instruction.
const PROSE_KEY = 40;

/**
 * Every string in a JSON value with its JSON path (`$.a.b[2]`), breadth-first, so a deeply nested attacker cannot
 * push shallow fields out of the screen. Stops at MAX_LEAVES strings or MAX_DEPTH levels and says so.
 */
export function stringLeaves(value: unknown): { leaves: [string, string][]; truncated: boolean } {
  const leaves: [string, string][] = [];
  const queue: [string, unknown, number][] = [['$', value, 0]];
  let truncated = false;
  for (let i = 0; i < queue.length; i++) {
    const [path, node, depth] = queue[i]!;
    if (leaves.length >= MAX_LEAVES) {
      truncated = true;
      break;
    }
    if (typeof node === 'string') {
      if (node.length > 0) leaves.push([path, node]);
    } else if (node !== null && typeof node === 'object') {
      if (depth >= MAX_DEPTH) {
        truncated = true;
        continue;
      }
      if (Array.isArray(node)) {
        for (const [j, child] of node.entries()) queue.push([`${path}[${j}]`, child, depth + 1]);
      } else {
        for (const [key, child] of Object.entries(node)) {
          const childPath = /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
          if (key.length >= PROSE_KEY) leaves.push([`${childPath}#key`, key]);
          queue.push([childPath, child, depth + 1]);
        }
      }
    }
  }
  return { leaves, truncated };
}
