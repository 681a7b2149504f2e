import 'reflect-metadata';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createPreflight, type Preflight } from '../../app/index.ts';
import { type AppConfig, loadConfig } from '../../core/config.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { createApiKey, type KeyRole } from '../../core/services/workspaces/api-keys.ts';
import { createHttpApp } from '../../server/http-app.ts';
import { createTestDatabase } from './database.ts';

export interface TestServer {
  baseUrl: string;
  app: Preflight;
  knex: Preflight['db']['knex'];
  databaseUrl: string;
  key(workspace: string, role?: KeyRole): Promise<string>;
  /** POST/GET JSON with an optional key; returns status, headers and parsed body. */
  request(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** A real Preflight on 127.0.0.1 with its own fresh database. */
export async function startTestServer(overrides: Partial<AppConfig> = {}): Promise<TestServer> {
  const database = await createTestDatabase();
  const config: AppConfig = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: database.url,
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'preflight-data-')),
    ...overrides,
  };
  const app = await createPreflight(config);
  const server: Server = createHttpApp(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const knex = app.container.resolve(Knex);
  return {
    baseUrl,
    app,
    knex,
    databaseUrl: database.url,
    key: async (workspace, role = 'agent') => (await createApiKey(knex, { workspace, role })).key,
    async request(method, urlPath, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.Authorization = `Api-Key ${opts.key}`;
      let body: string | undefined = opts.raw;
      if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined) headers['Content-Type'] ??= 'application/json';
      const res = await fetch(`${baseUrl}${urlPath}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: res.status, headers: res.headers, body: parsed };
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await app.close();
      await database.drop();
    },
  };
}
