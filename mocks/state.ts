import fs from 'node:fs';
import path from 'node:path';

/**
 * A vendor mock's state: a JSON file in the data folder, so the web and the
 * worker process see the same subscriptions. Reads and writes are synchronous,
 * so no other request of this process runs between a read and its write.
 */
function fileOf(name: string): string {
  return path.join(process.env.DATA_DIR ?? 'data', name);
}

export function readMockState<S>(name: string, empty: () => S): S {
  try {
    return JSON.parse(fs.readFileSync(fileOf(name), 'utf8')) as S;
  } catch {
    return empty();
  }
}

export function updateMockState<S, T = void>(
  name: string,
  empty: () => S,
  change: (state: S) => T,
): T {
  const state = readMockState(name, empty);
  const result = change(state);
  fs.mkdirSync(path.dirname(fileOf(name)), { recursive: true });
  fs.writeFileSync(fileOf(name), JSON.stringify(state), { mode: 0o600 });
  return result;
}
