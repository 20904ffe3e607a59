/*
 * CourseGen SCORM 1.2 package (ADR 34): marks a topic quiz or the final exam in the browser.
 * The answer key is in the page (a package has no server to ask); the score goes to the launch
 * page's runtime (course.js, the frame's parent), which reports it to the LMS.
 */
(function () {
  'use strict';

  var key = JSON.parse(document.getElementById('quiz-key').textContent);
  var form = document.getElementById('quiz-form');
  var message = document.getElementById('quiz-message');
  var retake = document.getElementById('quiz-retake');
  var submit = document.getElementById('quiz-submit');
  var questions = form.querySelectorAll('fieldset.question');

  var shell = null;
  try {
    if (window.parent !== window && window.parent.CourseGenShell)
      shell = window.parent.CourseGenShell;
  } catch {
    shell = null;
  }

  if (key.kind === 'exam' && shell && !shell.examOpen()) {
    form.hidden = true;
    document.getElementById('quiz-locked').hidden = false;
    return;
  }

  function chosen(index) {
    var checked = form.querySelector('input[name="q' + index + '"]:checked');
    return checked ? Number(checked.value) : null;
  }

  function optionText(fieldset, index) {
    var input = fieldset.querySelector('input[value="' + index + '"]');
    return input ? input.parentNode.textContent.replace(/^\s+|\s+$/g, '') : '';
  }

  /**
   * "Right." or "The answer is: <option>", then the explanation. The verdict is English and the
   * rest is in the course's language: each is its own isolated run, so both read well either way.
   */
  function explain(element, rightOption, explanation) {
    element.textContent = '';
    var verdict = document.createElement('strong');
    verdict.lang = 'en';
    verdict.dir = 'ltr';
    verdict.textContent = rightOption === null ? 'Right.' : 'The answer is:';
    element.appendChild(verdict);
    if (rightOption !== null) {
      element.appendChild(document.createTextNode(' '));
      var option = document.createElement('bdi');
      option.textContent = rightOption;
      element.appendChild(option);
    }
    element.appendChild(document.createTextNode(' '));
    var text = document.createElement('bdi');
    text.textContent = explanation;
    element.appendChild(text);
  }

  function setInputs(disabled) {
    var inputs = form.querySelectorAll('input');
    for (var i = 0; i < inputs.length; i += 1) inputs[i].disabled = disabled;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    for (var q = 0; q < questions.length; q += 1) {
      if (chosen(q) === null) {
        message.textContent = 'Answer question ' + (q + 1) + ' first.';
        questions[q].querySelector('input').focus();
        return;
      }
    }
    var score = 0;
    for (var i = 0; i < questions.length; i += 1) {
      var fieldset = questions[i];
      var right = chosen(i) === key.answers[i];
      if (right) score += 1;
      fieldset.setAttribute('data-result', right ? 'right' : 'wrong');
      var explanation = fieldset.querySelector('.explanation');
      explain(
        explanation,
        right ? null : optionText(fieldset, key.answers[i]),
        key.explanations[i],
      );
      explanation.hidden = false;
    }
    var total = questions.length;
    var result = shell ? shell.quizResult(key.page, score, total) : null;
    var percent = Math.round((100 * score) / total);
    var text = 'You got ' + score + ' of ' + total + ' right (' + percent + '%).';
    if (key.kind === 'exam' && result) {
      text += result.passed
        ? ' You passed the course.'
        : ' Not passed yet: ' + result.masteryScore + '% passes. Take it again when you are ready.';
    }
    message.textContent = text;
    message.setAttribute('data-score', String(score));
    setInputs(true);
    submit.hidden = true;
    retake.hidden = false;
  });

  retake.addEventListener('click', function () {
    form.reset();
    setInputs(false);
    for (var i = 0; i < questions.length; i += 1) {
      questions[i].removeAttribute('data-result');
      questions[i].querySelector('.explanation').hidden = true;
    }
    message.textContent = '';
    message.removeAttribute('data-score');
    submit.hidden = false;
    retake.hidden = true;
    questions[0].querySelector('input').focus();
  });
})();
