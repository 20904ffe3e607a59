import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/lib/system';
import { startApp } from './app-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    adminEmail: string;
    adminPassword: string;
    redisPrefix: string;
    /** The port of the API client page a browser test serves itself (tests/e2e/api.test.ts). */
    apiClientPort: number;
  }
}

/**
 * One running app for the whole browser suite; each test signs up its own users. The page of
 * an API client on another origin, http://127.0.0.1:<apiClientPort>, may call its /api (CORS).
 */
export default async function setup(project: TestProject) {
  const apiClientPort = await freePort();
  const app = await startApp({ API_ALLOWED_ORIGINS: `http://127.0.0.1:${apiClientPort}` });
  project.provide('baseURL', app.baseURL);
  project.provide('dataDir', app.dataDir);
  project.provide('adminEmail', app.adminEmail);
  project.provide('adminPassword', app.adminPassword);
  project.provide('redisPrefix', app.redisPrefix);
  project.provide('apiClientPort', apiClientPort);
  return async () => {
    await app.stop();
  };
}
