import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './config.ts';

const run = promisify(execFile);

function hasSystemdAnalyze(): boolean {
  try {
    execFileSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const available = hasSystemdAnalyze();
if (!available && process.env.CI) throw new Error('systemd-analyze is missing: apt-get install systemd (.ci/run does)');
if (!available) console.warn('Skipping the systemd unit test: systemd-analyze is missing (apt-get install systemd)');

/** `systemd-analyze verify` of a unit: its complaints (unknown keys, bad values, missing programs), or ''. */
async function verify(unitFile: string): Promise<string> {
  try {
    const { stdout, stderr } = await run('systemd-analyze', ['verify', unitFile]);
    return `${stdout}${stderr}`.trim();
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? failed.message}`.trim();
  }
}

/**
 * docs/deploy.md's unit, word for word but for the install folder (`/opt/rayo/app`), which is this
 * checkout here so that the programs it starts exist.
 */
async function unitFromDeployDoc(): Promise<string> {
  const doc = await readFile(path.join(repoRoot, 'docs/deploy.md'), 'utf8');
  const unit = /`\/etc\/systemd\/system\/rayo\.service`:\n\n```ini\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!unit) throw new Error('docs/deploy.md has no rayo.service unit');
  return unit.replaceAll('/opt/rayo/app', repoRoot);
}

describe.skipIf(!available)("docs/deploy.md's systemd unit", () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rayo-systemd-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes systemd-analyze verify without a complaint', async () => {
    const unit = await unitFromDeployDoc();
    expect(unit).toContain('ExecStart=');
    await writeFile(path.join(dir, 'rayo.service'), unit);
    expect(await verify(path.join(dir, 'rayo.service'))).toBe('');
  });

  it('would show a mistake in it', async () => {
    const unit = (await unitFromDeployDoc()).replace('Restart=on-failure', 'Restart=on-failures');
    await writeFile(path.join(dir, 'mistaken.service'), unit);
    expect(await verify(path.join(dir, 'mistaken.service'))).toMatch(/Failed to parse service restart specifier/);
  });
});
