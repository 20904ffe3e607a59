import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { demoProviderRecords, type PaymentProvider } from '../db/schema';
import { db, writeTransaction, type Transaction } from '../app/utils/db.server';
import { env } from '../app/utils/env.server';

/**
 * What a simulated payment provider keeps on its side (its subscriptions, pending approvals), one
 * record a row of `demo_provider_records`. The web processes and the worker all change it, so
 * every change is one write transaction (BEGIN IMMEDIATE): a read, the change and the write
 * happen under SQLite's write lock, and no process overwrites another's record (ADR 0037). The
 * JSON files of earlier versions (`mock-paypal.json`...) are taken in once.
 */
export interface MockRecords {
  get<T>(kind: string, id: string): T | undefined;
  put<T>(kind: string, id: string, value: T): void;
  remove(kind: string, id: string): void;
}

function recordsIn(
  tx: Pick<Transaction, 'select' | 'insert' | 'delete'>,
  provider: PaymentProvider,
): MockRecords {
  const where = (kind: string, id: string) =>
    and(
      eq(demoProviderRecords.provider, provider),
      eq(demoProviderRecords.kind, kind),
      eq(demoProviderRecords.id, id),
    );
  return {
    get<T>(kind: string, id: string) {
      const row = tx
        .select({ data: demoProviderRecords.data })
        .from(demoProviderRecords)
        .where(where(kind, id))
        .get();
      return row?.data as T | undefined;
    },
    put<T>(kind: string, id: string, value: T) {
      tx.insert(demoProviderRecords)
        .values({ provider, kind, id, data: value as object })
        .onConflictDoUpdate({
          target: [demoProviderRecords.provider, demoProviderRecords.kind, demoProviderRecords.id],
          set: { data: value as object, updatedAt: new Date() },
        })
        .run();
    },
    remove(kind: string, id: string) {
      tx.delete(demoProviderRecords).where(where(kind, id)).run();
    },
  };
}

/** One record as the provider has it now. */
export function readMockRecord<T>(
  provider: PaymentProvider,
  kind: string,
  id: string,
): T | undefined {
  importLegacyFile(provider);
  return recordsIn(db(), provider).get<T>(kind, id);
}

/** Reads and changes the provider's records in one write transaction; returns what `change` does. */
export function changeMockRecords<T>(
  provider: PaymentProvider,
  change: (records: MockRecords) => T,
): T {
  importLegacyFile(provider);
  return writeTransaction((tx) => change(recordsIn(tx, provider)));
}

/**
 * Earlier versions kept each provider's state in `DATA_DIR/mock-<provider>.json` (read, changed
 * and rewritten whole by every process, which lost writes). Its records move into the table once,
 * without overwriting newer ones, and the file is renamed so that it is not read again.
 */
function importLegacyFile(provider: PaymentProvider) {
  const file = path.join(env().DATA_DIR, `mock-${provider}.json`);
  if (!fs.existsSync(file)) return;
  let legacy: Record<string, Record<string, unknown>> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object') legacy = parsed as typeof legacy;
  } catch {
    // Gone meanwhile, or half-written as the old format could leave it: nothing to take in.
  }
  writeTransaction((tx) => {
    for (const [kind, records] of Object.entries(legacy))
      for (const [id, data] of Object.entries(typeof records === 'object' ? (records ?? {}) : {}))
        tx.insert(demoProviderRecords)
          .values({ provider, kind: singular(kind), id, data: data as object })
          .onConflictDoNothing()
          .run();
  });
  try {
    fs.renameSync(file, `${file}.imported`);
  } catch {
    // Another process took it in at the same moment (the inserts above changed nothing).
  }
}

/** The old files grouped records by plural kind (`subscriptions`, `approvals`). */
const singular = (kind: string) => kind.replace(/s$/, '');
