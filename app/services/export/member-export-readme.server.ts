/** README.md at the top of a member's data export: what each file is (ADR 0060). */
export const EXPORT_README = `# Your data

Everything your account holds, as it was when you downloaded this file. Dates and times are
ISO 8601 in UTC. JSON files are UTF-8 and can be opened in any text editor.

## account/

- \`profile.json\`: your name, email address, plan and role, and when the account was made.
  Your password is not included: only a one-way hash of it is stored, and it is not yours to
  read back.
- \`subscriptions.json\`: every subscription you started, through PayPal or Razorpay, with its
  plan, status, amount, dates, the billing details you typed at checkout, and its receipts.
- \`receipts/receipt-NNNNNN.pdf\`: each receipt, as the receipts page and the email give it.

## outlines.json

Every outline you asked for on the Create page: the title and sub-topics you typed, the topics
and lessons written for it, and the course made from it (\`courseId\`, null if none was).

## documents/

The text read from each document you uploaded (or pasted) to write a course from, section by
section (\`.md\`, one file per document). The original file was never kept: only this text.

## courses/<title>-<id>/

One folder per course, newest first:

- \`course.json\`: the course record, in the shape the API's \`GET /api/courses\` gives it
  (\`_id\`, \`mainTopic\`, \`type\`, \`photo\`, \`date\`, \`content\` as JSON text with every topic
  and lesson, \`completed\`, \`end\`, \`user\`, \`language\`).
- \`course.md\`: the whole course as Markdown, with your notes under each lesson (the
  **Download Markdown** file of the course page).
- \`notes.json\`: your notes, by topic and lesson.
- \`tutor.json\`: your conversations with the tutor, by lesson, oldest first.
- \`quiz-attempts.json\`: every quiz and exam you submitted: score, and for each question your
  answer and the right one.
- \`flashcards.json\`: the course's flashcards with when each is due for you, whether you
  suspended it, and your review log (each grade: 1 Again, 2 Hard, 3 Good, 4 Easy).

To delete a course, or your account and everything in it, see the Privacy Policy.
`;
