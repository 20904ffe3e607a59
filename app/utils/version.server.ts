import { version } from '../../package.json';

/**
 * The release this build is: package.json's version, which the build writes into the bundle (Vite
 * and esbuild inline what is imported of a JSON file), so the running app never reads package.json
 * and cannot report a version other than the one it was built as.
 */
export function appVersion(): string {
  return version;
}
