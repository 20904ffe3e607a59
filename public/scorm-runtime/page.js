/*
 * CourseGen SCORM 1.2 package (ADR 34): every lesson and quiz page runs this at the end of its
 * body, telling the launch page (course.js, the frame's parent) which page is shown as soon as
 * its text is there, not when its last image has loaded: a learner who moves on quickly still
 * has the lesson counted. Opened on its own, outside the launch page, it does nothing.
 */
(function () {
  'use strict';
  try {
    var shell = window.parent !== window ? window.parent.CourseGenShell : null;
    if (shell) shell.pageShown(document);
  } catch {
    // The parent is not the launch page (another origin): nothing to tell.
  }
})();
