import fs from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { envSchema, parseEnv } from '~/utils/env.server';

/**
 * docker-compose.several-nodes.yml, read as Docker Compose reads it (no Docker here): two web
 * containers, two workers, PostgreSQL and Redis, each CourseGen container with the settings a
 * node needs, and nothing a node needs on its own disk.
 */
interface Service {
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  tmpfs?: string[];
  ports?: string[];
  healthcheck?: { disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  command?: string[];
}
const compose = parse(fs.readFileSync('docker-compose.several-nodes.yml', 'utf8'), {
  merge: true,
}) as { services: Record<string, Service> };
const services = compose.services;
const coursegen = Object.entries(services).filter(([, service]) => service.image === 'coursegen');

/** `${NAME:?message}` and `${NAME:-default}` as Compose fills them in, given these values. */
const given: Record<string, string> = {
  POSTGRES_PASSWORD: 'pg-password',
  SESSION_SECRET: 's'.repeat(64),
};
const substitute = (value: string) =>
  value.replace(/\$\{(\w+)(?::[?-]([^}]*))?\}/g, (_, name: string, fallback?: string) =>
    name in given ? given[name]! : (fallback ?? ''),
  );

describe('docker-compose.several-nodes.yml', () => {
  it('runs two web containers, two workers, PostgreSQL and Redis', () => {
    const byProcesses = (processes: string) =>
      coursegen.filter(([, service]) => service.environment?.PROCESSES === processes).length;
    expect(byProcesses('web')).toBe(2);
    expect(byProcesses('worker')).toBe(2);
    expect(coursegen).toHaveLength(4);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.redis?.image).toMatch(/^redis:/);
  });

  it('gives every CourseGen container settings the app accepts, the same shared ones on each', () => {
    const shared = ['DATABASE_URL', 'REDIS_URL', 'SESSION_SECRET', 'APP_URL'];
    for (const [name, service] of coursegen) {
      const environment = Object.fromEntries(
        Object.entries(service.environment!).map(([key, value]) => [
          key,
          substitute(String(value)),
        ]),
      );
      for (const key of Object.keys(environment))
        expect(Object.keys(envSchema.shape), `${name}: ${key}`).toContain(key);
      const config = parseEnv(environment);
      expect(config.DATABASE_URL, name).toBe(
        'postgres://coursegen:pg-password@postgres:5432/coursegen',
      );
      expect(config.REDIS_URL, name).toBe('redis://redis:6379');
      for (const key of shared)
        expect(environment[key], `${name}: ${key}`).toBe(
          substitute(String(coursegen[0]![1].environment![key])),
        );
      // Started only once the database and Redis answer.
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it('keeps nothing a node needs on its own disk, and exposes only the web containers', () => {
    for (const [name, service] of coursegen) {
      expect(service.volumes, name).toBeUndefined();
      // Scratch only, and the image's user's (uid 1000), as the image's own /data is: a bare
      // tmpfs is root's, and the app could not write it (issue 35).
      expect(service.tmpfs, name).toEqual(['/data:uid=1000,gid=1000,mode=0700']);
      const web = service.environment!.PROCESSES === 'web';
      expect(Boolean(service.ports), name).toBe(web);
      // The image's health check fits web and worker containers alike (ADR 0045).
      expect(service.healthcheck, name).toBeUndefined();
    }
    expect(services.postgres?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(services.redis?.command).toContain('--appendonly');
  });
});
