import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicFiles } from './public-files';

describe('publicFiles', () => {
  let base = '';
  let close = () => {};

  beforeAll(async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'public-files-'));
    fs.mkdirSync(path.join(root, 'images'));
    fs.writeFileSync(path.join(root, 'favicon.svg'), '<svg/>');
    fs.writeFileSync(path.join(root, 'images', 'hero course.svg'), '<svg id="hero"/>');
    const app = express();
    app.use(publicFiles(root, { maxAge: '1h' }));
    app.use((req, res) => res.status(404).send(`not a file: ${req.path}`));
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('serves the files of the folder, nested and with encoded names, with their caching', async () => {
    const favicon = await fetch(`${base}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await favicon.text()).toBe('<svg/>');
    const nested = await fetch(`${base}/images/hero%20course.svg`);
    expect(await nested.text()).toBe('<svg id="hero"/>');
  });

  it('hands every other path on: pages, the folder itself, files that are not there', async () => {
    for (const urlPath of ['/', '/home', '/images', '/images/', '/missing.svg', '/%E0%A4%A'])
      expect(await (await fetch(`${base}${urlPath}`)).text()).toMatch(/^not a file/);
  });
});
