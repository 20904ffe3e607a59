import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A small LMS stand-in for SCORM browser tests: one local static server (one origin, as an LMS
 * serves the packages it hosts) with
 *   /lms.html          a page that provides a SCORM 1.2 `API` object (scorm-again's Scorm12API,
 *                      the runtime many LMSs embed), records every call made to it in
 *                      `window.lmsCalls`, and launches the package in a frame (`?mode=frame`) or
 *                      in a window it opens (`?mode=popup`);
 *   /lms/scorm12.js    scorm-again's browser build, from node_modules;
 *   /package/…         the unzipped package.
 * A second launch of the same attempt passes what the first left (`window.lmsSaved`, set by an
 * init script), as an LMS hands a resumed SCO its data back.
 */

const SCORM_AGAIN = path.resolve('node_modules/scorm-again/dist/scorm12.js');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

const LMS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>LMS stand-in</title>
<script src="/lms/scorm12.js"></script>
<script>
(function () {
  var params = new URLSearchParams(location.search);
  var api = new Scorm12API({ autocommit: false, lmsCommitUrl: false, logLevel: 5 });
  var saved = window.lmsSaved;
  var core = { student_id: 'learner-1', student_name: 'Learner, Test' };
  var start = { core: core, student_data: { mastery_score: params.get('mastery') || '' } };
  if (saved) {
    core.lesson_location = saved.core.lesson_location;
    core.lesson_status = saved.core.lesson_status;
    core.entry = saved.core.exit === 'suspend' ? 'resume' : '';
    core.score = saved.core.score;
    start.suspend_data = saved.suspend_data;
    start.objectives = saved.objectives;
  }
  api.loadFromJSON(start, 'cmi');
  var lastError = api.LMSGetLastError.bind(api);
  window.lmsCalls = [];
  ['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSGetLastError',
   'LMSGetErrorString', 'LMSGetDiagnostic'].forEach(function (name) {
    var original = api[name].bind(api);
    api[name] = function () {
      var args = Array.prototype.slice.call(arguments);
      var result = original.apply(null, args);
      window.lmsCalls.push({ name: name, args: args, result: String(result), error: String(lastError()) });
      return result;
    };
  });
  /** What an LMS would keep of the attempt. */
  window.lmsSnapshot = function () {
    var cmi = JSON.parse(JSON.stringify(api.cmi));
    return cmi.cmi || cmi;
  };
  window.API = api;
})();
</script>
</head>
<body>
<h1>LMS stand-in</h1>
<button type="button" id="launch">Launch course</button>
<div id="player"></div>
<script>
(function () {
  var mode = new URLSearchParams(location.search).get('mode') || 'frame';
  var launch = document.getElementById('launch');
  if (mode === 'frame') {
    launch.hidden = true;
    var frame = document.createElement('iframe');
    frame.id = 'sco';
    frame.title = 'Course';
    frame.src = '/package/index.html';
    frame.style.width = '100%';
    frame.style.height = '720px';
    document.getElementById('player').appendChild(frame);
  } else {
    launch.addEventListener('click', function () {
      window.open('/package/index.html', 'sco', 'width=1100,height=800');
    });
  }
})();
</script>
</body>
</html>
`;

export interface LmsStandIn {
  origin: string;
  /** Every path requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

/** `imageDelayMs`: answer the package's images that late, as a slow network would. */
export async function startLmsStandIn(
  packageDir: string,
  { imageDelayMs = 0 }: { imageDelayMs?: number } = {},
): Promise<LmsStandIn> {
  const root = path.resolve(packageDir);
  const requested: string[] = [];
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://stand-in').pathname);
    requested.push(pathname);
    const send = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8') =>
      response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
    if (pathname === '/lms.html') return send(200, LMS_PAGE, TYPES['.html']);
    if (pathname === '/lms/scorm12.js')
      return send(200, fs.readFileSync(SCORM_AGAIN), TYPES['.js']);
    if (pathname.startsWith('/package/')) {
      const file = path.resolve(root, `.${pathname.slice('/package'.length)}`);
      if (file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        const delay = type.startsWith('image/') ? imageDelayMs : 0;
        setTimeout(() => {
          // The test may have finished (and removed the package) while the image was delayed.
          if (response.destroyed || !fs.existsSync(file)) return void response.destroy();
          send(200, fs.readFileSync(file), type);
        }, delay);
        return;
      }
    }
    send(404, 'Not Found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
