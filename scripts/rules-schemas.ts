// npm run rules:schemas: writes the JSON Schemas of the rules files to rules/schema/*.json (from the ajv schemas
// the loader validates with, and the plugins' configSchemas for detectors.json). `--check` only reports stale files.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../core/config.ts';
import { allPublishedSchemas, schemaFileText } from '../core/engine/rules/rules-files.ts';
import { PLUGINS } from '../plugins/index.ts';

const dir = path.join(ROOT_DIR, 'rules', 'schema');
const check = process.argv.includes('--check');
const schemas = allPublishedSchemas(PLUGINS.map((p) => p.detector.meta));
const stale: string[] = [];
mkdirSync(dir, { recursive: true });
for (const [name, schema] of Object.entries(schemas)) {
  const file = path.join(dir, `${name}.json`);
  const text = schemaFileText(schema);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
  stale.push(path.relative(ROOT_DIR, file));
  if (!check) writeFileSync(file, text);
}
const extra = readdirSync(dir).filter((f) => !(f.replace(/\.json$/, '') in schemas));
for (const f of extra) stale.push(`rules/schema/${f} (no such schema)`);
if (check && stale.length > 0) {
  console.error(`stale: ${stale.join(', ')}; run npm run rules:schemas`);
  process.exit(1);
}
console.log(check ? 'rules/schema is current' : `wrote ${stale.length} of ${Object.keys(schemas).length} schemas`);
