import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT_DIR } from '../../core/config.ts';

export const CLI = path.join(ROOT_DIR, 'bin', 'preflight.js');

/** Environment for a child that must use the embedded database under `dataDir`, whatever the parent has. */
export function embeddedEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PREFLIGHT_DATA_DIR: dataDir, ...extra };
  delete env.DATABASE_URL;
  delete env.PREFLIGHT_TEST_DATABASE_URL;
  return env;
}

export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT_DIR, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** Starts `npm start`'s entry point and resolves once it prints that it listens. */
export function startService(
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; port: number; stop(): Promise<number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', 'reflect-metadata', 'server/main.ts'], {
      cwd: ROOT_DIR,
      env,
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('preflight listening'));
      if (line) {
        const { port } = JSON.parse(line) as { port: number };
        resolve({
          child,
          port,
          stop: () =>
            new Promise((done) => {
              child.once('exit', (code) => done(code ?? 1));
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}: ${err}`)));
  });
}
