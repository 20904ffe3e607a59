/*
 * CourseGen SCORM 1.2 runtime (ADR 34): the script of the launch page, the package's one SCO.
 * It finds the LMS's `API` object as the SCORM 1.2 Run-Time Environment prescribes (this window,
 * then its parents, then the window that opened it and its parents), calls LMSInitialize, and
 * records as the learner goes:
 *   - cmi.core.lesson_location: the page shown (`lesson-3`, `quiz-2`, `exam`), to resume there;
 *   - cmi.suspend_data: lessons done and best quiz scores (a short JSON, well under 4,096 chars);
 *   - cmi.objectives.n: one per lesson ("completed" once opened) and per topic quiz (its score);
 *   - cmi.core.score.raw (0-100) and cmi.core.lesson_status "passed" or "failed" from the final
 *     exam's best score against the mastery score (the LMS's cmi.student_data.mastery_score,
 *     else the package's own); "completed" once every lesson is done when there is no exam;
 * and calls LMSFinish when the learner presses "Save and exit" or the page goes away.
 * Without an LMS the course still reads and marks quizzes; nothing is recorded.
 * One classic script in ES5 style (optional catch bindings aside), so it runs in any browser an
 * LMS supports; it loads nothing else.
 */
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('course-data').textContent);
  var frame = document.getElementById('content');
  var pages = data.pages;
  var lessons = pages.filter(function (page) {
    return page.kind === 'lesson';
  });
  var quizzes = pages.filter(function (page) {
    return page.kind === 'quiz';
  });
  var hasExam = pages.some(function (page) {
    return page.kind === 'exam';
  });
  var byId = {};
  pages.forEach(function (page) {
    byId[page.id] = page;
  });

  var api = null;
  var finished = false;
  var startedAt = new Date().getTime();
  var masteryScore = data.masteryScore;
  var objectivesWork = true;
  // The page the frame shows, and its document (each document counts once).
  var current = null;
  var shownDocument = null;
  // done: lesson id -> true; quizzes: quiz page id -> best percent; exam: best percent or null.
  var state = { done: {}, quizzes: {}, exam: null };

  /** SCORM 1.2 RTE: look for `API` in this window and up to 7 parents; a foreign one is skipped. */
  function findAPI(win) {
    var tries = 0;
    while (win) {
      try {
        if (win.API) return win.API;
      } catch {
        // A parent on another origin cannot be read; keep walking up.
      }
      if (!win.parent || win.parent === win || tries > 7) return null;
      tries += 1;
      win = win.parent;
    }
    return null;
  }

  function getAPI() {
    var found = findAPI(window);
    if (!found && window.opener) {
      try {
        found = findAPI(window.opener);
      } catch {
        found = null;
      }
    }
    return found;
  }

  function call(name, a, b) {
    try {
      return String(b === undefined ? api[name](a) : api[name](a, b));
    } catch {
      return 'false';
    }
  }

  function get(element) {
    return api ? call('LMSGetValue', element) : '';
  }

  function set(element, value) {
    return api ? call('LMSSetValue', element, String(value)) === 'true' : false;
  }

  function commit() {
    if (api) call('LMSCommit', '');
  }

  /* --- progress kept in cmi.suspend_data --------------------------------------------------- */

  function encodeState() {
    var done = lessons
      .map(function (page) {
        return state.done[page.id] ? '1' : '0';
      })
      .join('');
    return JSON.stringify({ v: 1, d: done, q: state.quizzes, e: state.exam });
  }

  function restore(text) {
    if (!text) return;
    try {
      var saved = JSON.parse(text);
      if (!saved || saved.v !== 1) return;
      lessons.forEach(function (page, i) {
        if (saved.d && saved.d.charAt(i) === '1') state.done[page.id] = true;
      });
      if (saved.q && typeof saved.q === 'object') {
        quizzes.forEach(function (page) {
          if (typeof saved.q[page.id] === 'number') state.quizzes[page.id] = saved.q[page.id];
        });
      }
      if (typeof saved.e === 'number') state.exam = saved.e;
    } catch {
      // Data from another package version: start over rather than stop.
    }
  }

  /* --- objectives: one per lesson, then one per topic quiz --------------------------------- */

  function objectiveIndex(pageId) {
    var index = -1;
    lessons.concat(quizzes).forEach(function (page, i) {
      if (page.id === pageId) index = i;
    });
    return index;
  }

  /** SCORM 1.2 adds objectives in order only, so every one is created at the first launch. */
  function createObjectives() {
    var all = lessons.concat(quizzes);
    var count = parseInt(get('cmi.objectives._count'), 10) || 0;
    for (var i = count; i < all.length; i += 1) {
      if (!set('cmi.objectives.' + i + '.id', all[i].id)) {
        // The LMS keeps no objectives (they are optional in SCORM 1.2): suspend_data has it all.
        objectivesWork = false;
        return;
      }
      set('cmi.objectives.' + i + '.status', 'not attempted');
    }
  }

  function setObjective(pageId, status, percent) {
    var index = objectiveIndex(pageId);
    if (!api || !objectivesWork || index < 0) return;
    var prefix = 'cmi.objectives.' + index + '.';
    if (typeof percent === 'number') {
      set(prefix + 'score.min', 0);
      set(prefix + 'score.max', 100);
      set(prefix + 'score.raw', percent);
    }
    set(prefix + 'status', status);
  }

  /* --- what the learner did ---------------------------------------------------------------- */

  function lessonsDone() {
    return lessons.filter(function (page) {
      return state.done[page.id];
    }).length;
  }

  function examOpen() {
    return lessonsDone() === lessons.length;
  }

  function passed(percent) {
    return percent >= masteryScore;
  }

  function save() {
    set('cmi.suspend_data', encodeState());
    commit();
    render();
  }

  function pageShown(id) {
    var page = byId[id];
    if (!page) return;
    set('cmi.core.lesson_location', id);
    if (page.kind === 'lesson' && !state.done[id]) {
      state.done[id] = true;
      setObjective(id, 'completed');
      if (!hasExam && examOpen()) set('cmi.core.lesson_status', 'completed');
    }
    current = id;
    save();
  }

  /** A quiz page's score (right answers of total); answers what the page should say. */
  function quizResult(id, score, total) {
    var page = byId[id];
    if (!page || !total) return null;
    var percent = Math.round((100 * score) / total);
    if (page.kind === 'quiz') {
      var best = Math.max(percent, state.quizzes[id] || 0);
      state.quizzes[id] = best;
      setObjective(id, passed(best) ? 'passed' : 'failed', best);
    } else if (page.kind === 'exam') {
      // The best attempt counts: a retake never takes a pass away.
      state.exam = Math.max(percent, state.exam === null ? 0 : state.exam);
      set('cmi.core.score.min', 0);
      set('cmi.core.score.max', 100);
      set('cmi.core.score.raw', state.exam);
      set('cmi.core.lesson_status', passed(state.exam) ? 'passed' : 'failed');
    }
    save();
    return { percent: percent, passed: passed(percent), masteryScore: masteryScore };
  }

  /** HHHH:MM:SS.SS, SCORM 1.2's CMITimespan. */
  function timespan(ms) {
    var seconds = ms / 1000;
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = (seconds % 60).toFixed(2);
    var two = function (n) {
      return (n < 10 ? '0' : '') + n;
    };
    return (
      (h < 10 ? '000' : h < 100 ? '00' : h < 1000 ? '0' : '') +
      h +
      ':' +
      two(m) +
      ':' +
      (Number(s) < 10 ? '0' : '') +
      s
    );
  }

  function finish() {
    if (!api || finished) return;
    finished = true;
    set('cmi.core.session_time', timespan(new Date().getTime() - startedAt));
    var status = get('cmi.core.lesson_status');
    // "suspend" asks the LMS to resume this attempt next time; a finished course ends it.
    set('cmi.core.exit', status === 'passed' || status === 'completed' ? '' : 'suspend');
    set('cmi.suspend_data', encodeState());
    commit();
    call('LMSFinish', '');
    render();
  }

  /* --- the page ---------------------------------------------------------------------------- */

  function render() {
    var progress = document.getElementById('progress');
    var text = lessonsDone() + ' of ' + lessons.length + ' lessons done';
    if (state.exam !== null) {
      text +=
        ' · final exam ' +
        state.exam +
        '% (' +
        (passed(state.exam) ? 'passed' : 'not passed') +
        ')';
    }
    progress.textContent = text;

    var links = document.querySelectorAll('a[data-page]');
    for (var i = 0; i < links.length; i += 1) {
      var link = links[i];
      var id = link.getAttribute('data-page');
      if (id === current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
      var mark = link.querySelector('.done-mark');
      var done =
        state.done[id] || (byId[id].kind === 'quiz' && typeof state.quizzes[id] === 'number');
      if (done && !mark) {
        mark = document.createElement('span');
        mark.className = 'done-mark';
        mark.setAttribute('role', 'img');
        mark.setAttribute('aria-label', 'done');
        mark.textContent = '✓';
        link.appendChild(mark);
      }
      if (byId[id].kind === 'exam') {
        if (examOpen()) link.removeAttribute('aria-disabled');
        else link.setAttribute('aria-disabled', 'true');
        var note = document.getElementById('exam-note');
        if (note) note.textContent = examOpen() ? '' : 'opens when every lesson is done';
      }
    }

    var connection = document.getElementById('connection');
    var exit = document.getElementById('exit');
    if (!api) {
      connection.textContent = 'Not connected to an LMS: your progress is not recorded.';
      exit.hidden = true;
    } else if (finished) {
      connection.textContent = 'Your progress is saved. You can close this window.';
      exit.hidden = true;
    } else {
      connection.textContent = '';
      exit.hidden = false;
    }
  }

  function start() {
    api = getAPI();
    if (api && call('LMSInitialize', '') !== 'true') api = null;
    if (api) {
      restore(get('cmi.suspend_data'));
      var mastery = parseFloat(get('cmi.student_data.mastery_score'));
      if (!isNaN(mastery) && mastery >= 0 && mastery <= 100) masteryScore = mastery;
      var status = get('cmi.core.lesson_status');
      if (!status || status === 'not attempted') set('cmi.core.lesson_status', 'incomplete');
      createObjectives();
      commit();
      var resume = byId[get('cmi.core.lesson_location')];
      if (resume && (resume.kind !== 'exam' || examOpen())) {
        // The first page, parsed or still loading, is not what the learner sees: skip it.
        try {
          shownDocument = frame.contentDocument;
        } catch {
          shownDocument = null;
        }
        frame.src = resume.href;
        render();
        return;
      }
    }
    // The first page may have been parsed while this script was on its way.
    shownInFrame();
    render();
  }

  /**
   * A page of the frame is shown: each says which it is (`data-page` on its body). Its own
   * script (page.js) says so as soon as its body is parsed; the frame's load event and the start
   * cover a page that ran before this script. Each document counts once.
   */
  function documentShown(doc) {
    var id = doc && doc.body ? doc.body.getAttribute('data-page') : null;
    if (!id || doc === shownDocument || finished) return;
    shownDocument = doc;
    pageShown(id);
  }

  function shownInFrame() {
    try {
      if (frame.contentWindow && frame.contentDocument) documentShown(frame.contentDocument);
    } catch {
      // Not a page of this package.
    }
  }

  frame.addEventListener('load', shownInFrame);

  document.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('a[data-kind="exam"]') : null;
    if (link && !examOpen()) event.preventDefault();
  });

  document.getElementById('exit').addEventListener('click', finish);
  window.addEventListener('pagehide', finish);
  window.addEventListener('beforeunload', finish);

  // For the pages in the frame (page.js, quiz.js).
  window.CourseGenShell = { examOpen: examOpen, quizResult: quizResult, pageShown: documentShown };

  start();
})();
