import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../db/connection';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-modes-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the data folder and database files', () => {
  it('are private to the app user: folder 0700, database, WAL and SHM 0600', () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const file = databaseFile(dataDir);
    const db = openDatabase(file);
    db.$client.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    expect(modeOf(dataDir)).toBe(0o700);
    for (const each of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(each), each).toBe(0o600);
    db.$client.close();
  });

  it('narrows a database file an older version left world-readable', () => {
    const dataDir = path.join(root, 'old');
    fs.mkdirSync(dataDir);
    const file = databaseFile(dataDir);
    fs.writeFileSync(file, '');
    fs.chmodSync(file, 0o644);
    openDatabase(file).$client.close();
    expect(modeOf(file)).toBe(0o600);
  });
});
