import { eq } from 'drizzle-orm';
import { database, first, tables } from '~/utils/database.server';

/**
 * The install's settings (the `settings` table, ADR 0039 and 0055): one row per key, its value a
 * JSON text. Shared by every process and node through the database.
 */
export async function readSetting(key: string): Promise<{ value: string; updatedAt: Date } | null> {
  const { settings } = tables;
  const row = await first(
    database()
      .select({ value: settings.value, updatedAt: settings.updatedAt })
      .from(settings)
      .where(eq(settings.key, key)),
  );
  return row ?? null;
}

export async function writeSetting(key: string, value: string): Promise<void> {
  const { settings } = tables;
  const updatedAt = new Date();
  await database()
    .insert(settings)
    .values({ key, value, updatedAt })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } });
}
