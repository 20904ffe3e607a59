import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { PaymentProvider } from '../db/schema';
import { database, first, tables, transaction } from '../app/utils/database.server';
import { env } from '../app/utils/env.server';

/**
 * What a simulated payment provider keeps on its side (its subscriptions, pending approvals), one
 * record a row of `demo_provider_records`. The web processes and the worker all change it, so
 * every change is one transaction (BEGIN IMMEDIATE on SQLite, SERIALIZABLE on PostgreSQL): a
 * read, the change and the write happen together, and no process overwrites another's record
 * (ADR 0037). The JSON files of earlier versions (`mock-paypal.json`...) are taken in once.
 */
export interface MockRecords {
  get<T>(kind: string, id: string): Promise<T | undefined>;
  put<T>(kind: string, id: string, value: T): Promise<void>;
  remove(kind: string, id: string): Promise<void>;
}

/** The provider's records, read and written through `database()` (the transaction, inside one). */
function recordsOf(provider: PaymentProvider): MockRecords {
  const { demoProviderRecords } = tables;
  const where = (kind: string, id: string) =>
    and(
      eq(demoProviderRecords.provider, provider),
      eq(demoProviderRecords.kind, kind),
      eq(demoProviderRecords.id, id),
    );
  return {
    async get<T>(kind: string, id: string) {
      const row = await first(
        database()
          .select({ data: demoProviderRecords.data })
          .from(demoProviderRecords)
          .where(where(kind, id)),
      );
      return row?.data as T | undefined;
    },
    async put<T>(kind: string, id: string, value: T) {
      await database()
        .insert(demoProviderRecords)
        .values({ provider, kind, id, data: value as object })
        .onConflictDoUpdate({
          target: [demoProviderRecords.provider, demoProviderRecords.kind, demoProviderRecords.id],
          set: { data: value as object, updatedAt: new Date() },
        });
    },
    async remove(kind: string, id: string) {
      await database().delete(demoProviderRecords).where(where(kind, id));
    },
  };
}

/** One record as the provider has it now. */
export async function readMockRecord<T>(
  provider: PaymentProvider,
  kind: string,
  id: string,
): Promise<T | undefined> {
  await importLegacyFile(provider);
  return recordsOf(provider).get<T>(kind, id);
}

/** Every record of one kind the provider has, oldest first (the mock's plans, for tests). */
export async function listMockRecords<T>(provider: PaymentProvider, kind: string): Promise<T[]> {
  await importLegacyFile(provider);
  const { demoProviderRecords } = tables;
  const rows = await database()
    .select({ data: demoProviderRecords.data })
    .from(demoProviderRecords)
    .where(and(eq(demoProviderRecords.provider, provider), eq(demoProviderRecords.kind, kind)))
    .orderBy(demoProviderRecords.updatedAt);
  return rows.map((row) => row.data as T);
}

/**
 * Reads and changes the provider's records in one transaction; returns what `change` does. On
 * PostgreSQL `change` may run more than once (a serialization retry): database work only.
 */
export async function changeMockRecords<T>(
  provider: PaymentProvider,
  change: (records: MockRecords) => Promise<T>,
): Promise<T> {
  await importLegacyFile(provider);
  return transaction(() => change(recordsOf(provider)));
}

/**
 * Earlier versions kept each provider's state in `DATA_DIR/mock-<provider>.json` (read, changed
 * and rewritten whole by every process, which lost writes). Its records move into the table once,
 * without overwriting newer ones, and the file is renamed so that it is not read again.
 */
async function importLegacyFile(provider: PaymentProvider) {
  const file = path.join(env().DATA_DIR, `mock-${provider}.json`);
  if (!fs.existsSync(file)) return;
  let legacy: Record<string, Record<string, unknown>> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object') legacy = parsed as typeof legacy;
  } catch {
    // Gone meanwhile, or half-written as the old format could leave it: nothing to take in.
  }
  const { demoProviderRecords } = tables;
  await transaction(async (tx) => {
    for (const [kind, records] of Object.entries(legacy))
      for (const [id, data] of Object.entries(typeof records === 'object' ? (records ?? {}) : {}))
        await tx
          .insert(demoProviderRecords)
          .values({ provider, kind: singular(kind), id, data: data as object })
          .onConflictDoNothing();
  });
  try {
    fs.renameSync(file, `${file}.imported`);
  } catch {
    // Another process took it in at the same moment (the inserts above changed nothing).
  }
}

/** The old files grouped records by plural kind (`subscriptions`, `approvals`). */
const singular = (kind: string) => kind.replace(/s$/, '');
