import type { TestProject } from 'vitest/node';
import { startApp } from './app-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    adminEmail: string;
    adminPassword: string;
    redisPrefix: string;
  }
}

/** One running app for the whole browser suite; each test signs up its own users. */
export default async function setup(project: TestProject) {
  const app = await startApp();
  project.provide('baseURL', app.baseURL);
  project.provide('dataDir', app.dataDir);
  project.provide('adminEmail', app.adminEmail);
  project.provide('adminPassword', app.adminPassword);
  project.provide('redisPrefix', app.redisPrefix);
  return async () => {
    await app.stop();
  };
}
