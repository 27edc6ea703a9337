/**
 * The deployment's own configuration files: the edge (deploy/edge.conf, which compose mounts and
 * `npm run stack` includes) caps the connections of one client address and sends HSTS on TLS, and
 * compose's store lets anyone read single objects under assets/ and public/ but list nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type ClientRequest, createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, writeNginxConfig } from './stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const edge = readFileSync(path.join(ROOT, 'deploy/edge.conf'), 'utf8');
/** The lines that are not comments. */
const directives = edge
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter(Boolean)
  .join('\n');

describe('edge: connections per client address', () => {
  it('keys a connection zone on the client address and caps each address in the server block, answering 429 past it', () => {
    const zone = /^limit_conn_zone \$binary_remote_addr zone=([\w-]+):\d+m;$/m.exec(directives);
    expect(zone).not.toBeNull();
    const server = directives.slice(directives.indexOf('server {'));
    const cap = new RegExp(`^limit_conn ${zone![1]} (\\d+);$`, 'm').exec(server);
    expect(cap).not.toBeNull();
    // A few browsers behind one address fit; an address holding hundreds of trickling uploads does not.
    expect(Number(cap![1])).toBeGreaterThanOrEqual(16);
    expect(Number(cap![1])).toBeLessThanOrEqual(256);
    expect(server).toMatch(/^limit_conn_status 429;$/m);
  });

  it('is in the configuration npm run stack writes, which nginx accepts', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-edge-conf-'));
    try {
      const conf = writeNginxConfig(dir, 8080, [3001, 3002], 'http://127.0.0.1:9000');
      const written = readFileSync(path.join(dir, 'nginx', 'edge.conf'), 'utf8');
      expect(written).toContain('limit_conn_zone $binary_remote_addr');
      expect(written).toMatch(/^\s*limit_conn dropsite_per_address \d+;$/m);
      expect(existsSync(NGINX)).toBe(true);
      const test = spawnSync(NGINX, ['-t', '-c', conf, '-p', path.join(dir, 'nginx')], { encoding: 'utf8' });
      expect(test.stderr).toContain('syntax is ok');
      expect(test.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('edge: a running nginx with the stack’s configuration', () => {
  let dir = '';
  let nginx: ChildProcess | undefined;
  let api: Server | undefined;
  const held: ClientRequest[] = [];
  afterAll(async () => {
    for (const request of held) request.destroy();
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    api?.closeAllConnections();
    await new Promise((resolve) => (api ? api.close(resolve) : resolve(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ask = (port: number, localAddress: string) =>
    new Promise<{ status: number; hsts: string | undefined }>((resolve, reject) => {
      const request = httpGet({ host: '127.0.0.1', port, path: '/api/health', localAddress, agent: false }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, hsts: res.headers['strict-transport-security'] as string | undefined });
      });
      request.on('error', reject);
    });

  it('answers 429 to an address holding 128 requests while another address is served, and sends no HSTS over plain HTTP', async () => {
    // The API behind it: holds /hold requests open, answers anything else.
    let heldAtApi = 0;
    api = createServer((req, res) => {
      if (req.url === '/hold') {
        heldAtApi++;
        return;
      }
      res.end('ok');
    });
    await new Promise<void>((resolve) => api!.listen(0, '127.0.0.1', () => resolve()));
    const apiPort = (api.address() as AddressInfo).port;
    const port = await freePort();
    dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-edge-run-'));
    const conf = writeNginxConfig(dir, port, [apiPort], 'http://127.0.0.1:9');
    nginx = spawn(NGINX, ['-c', conf, '-p', path.join(dir, 'nginx')], { stdio: 'ignore' });
    await expect
      .poll(
        () =>
          ask(port, '127.0.0.1').then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 15_000 },
      )
      .toBe(200);

    const first = await ask(port, '127.0.0.1');
    expect(first.hsts).toBeUndefined();
    for (let i = 0; i < 128; i++) {
      const request = httpGet({ host: '127.0.0.1', port, path: '/hold', localAddress: '127.0.0.1', agent: false });
      request.on('error', () => {});
      held.push(request);
    }
    await expect.poll(() => heldAtApi, { timeout: 15_000 }).toBe(128);
    expect((await ask(port, '127.0.0.1')).status).toBe(429);
    expect((await ask(port, '127.0.0.2')).status).toBe(200);
  }, 30_000);
});

describe('edge: Strict-Transport-Security', () => {
  it('is sent for a year on a TLS connection and never over plain HTTP', () => {
    const map = /map \$scheme \$dropsite_hsts \{([^}]*)\}/.exec(directives);
    const entries = map?.[1] ?? '';
    expect(entries).toMatch(/default "";/);
    const https = /https "([^"]+)";/.exec(entries)?.[1] ?? '';
    expect(Number(/max-age=(\d+)/.exec(https)?.[1])).toBeGreaterThanOrEqual(31_536_000);
  });

  it('is repeated in every location that sets headers of its own (nginx drops the server’s there)', () => {
    const blocks = directives.split(/\n(?=location )/).slice(1);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const body = block.slice(0, block.indexOf('\n}'));
      if (/^add_header /m.test(body)) expect(body, block.split('\n')[0]).toContain('add_header Strict-Transport-Security $dropsite_hsts always;');
    }
    const server = directives.slice(directives.indexOf('server {'), directives.indexOf('location '));
    expect(server).toContain('add_header Strict-Transport-Security $dropsite_hsts always;');
  });
});

interface TPolicy {
  Statement: Array<{ Effect: string; Action: string[]; Resource: string[] }>;
}

/** The policy file, with the shape checked: a list of statements, each with its lists of actions and resources. */
function readPolicy(file: string): TPolicy {
  const policy = JSON.parse(readFileSync(file, 'utf8')) as TPolicy;
  expect(Array.isArray(policy.Statement)).toBe(true);
  for (const statement of policy.Statement) {
    expect(statement.Effect).toBe('Allow');
    expect(Array.isArray(statement.Action) && Array.isArray(statement.Resource)).toBe(true);
  }
  return policy;
}

describe('compose: anonymous access to the store', () => {
  const compose = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const init = compose.slice(compose.indexOf('  minio-init:'), compose.indexOf('\n  api:'));

  it('grants s3:GetObject on assets/ and public/ objects only: no listing, no other prefix', () => {
    const policy = readPolicy(path.join(ROOT, 'deploy/minio-anonymous-read.json'));
    const actions = policy.Statement.flatMap((s) => s.Action);
    const resources = policy.Statement.flatMap((s) => s.Resource);
    expect(new Set(actions)).toEqual(new Set(['s3:GetObject']));
    expect(resources.sort()).toEqual(['arn:aws:s3:::dropsite/assets/*', 'arn:aws:s3:::dropsite/public/*']);
  });

  it('is the policy minio-init applies, instead of the download preset that also lists', () => {
    expect(init).toContain('./deploy/minio-anonymous-read.json:/etc/dropsite/minio-anonymous-read.json:ro');
    expect(init).toContain('mc anonymous set-json /etc/dropsite/minio-anonymous-read.json local/dropsite');
    expect(init).not.toMatch(/anonymous set (download|public)/);
  });
});
