import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';

/**
 * The build's public files (`build/client`), served by express.static, asked for only when the
 * path is one of them. The folder does not change while the server runs, so it is listed once:
 * a page or API request costs no stat() of a file that is not there (an error object with its
 * stack trace, and a trip through the thread pool, for every page).
 */
export function publicFiles(root: string, options: Parameters<typeof express.static>[1]) {
  const files = new Set(
    fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map(
        (entry) =>
          `/${path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`,
      ),
  );
  const serve = express.static(root, options);
  return (req: Request, res: Response, next: NextFunction) =>
    files.has(decodedPath(req.path)) ? serve(req, res, next) : next();
}

function decodedPath(urlPath: string) {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return urlPath;
  }
}
