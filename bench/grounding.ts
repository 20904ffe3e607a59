import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import type { MaterialSection } from '../db/schema';
import { mockToolInput } from '../mocks/ai-answers';
import { coverageLabel, headingShare, isLaterPart } from '~/domain/material-coverage';
import { planTopics, topicLessons } from '~/services/material/coverage.server';
import { extractDocument } from '~/services/material/extract.server';
import { materialDigest, relevantSections } from '~/services/material/relevance.server';
import { parseOutline } from '~/services/vendors/ai-outline.server';
import { outlinePrompt, type OutlineRequest } from '~/services/vendors/ai-outline-prompt.server';
import { chapterProse, printedPdf } from '../tests/support/material-fixtures';

/**
 * `npm run bench -- grounding` (issue 37, ADR 0058): how well a course from a member's document
 * is grounded in it, over a corpus made here, each document with its expected sections:
 *  - a 23-section specification PDF with a cover page, a table of contents, running headers and
 *    "Page n of m" footers (the shape of the 17-page spec of issue 37);
 *  - a DOCX with Word heading styles and a "Contents" heading;
 *  - a Markdown guide with a title and a contents list of anchor links;
 *  - a plain-text manual with a title block and a dotted table of contents.
 * Each is read as /create reads it, outlined in 10 topics (a paid plan) by the demo's AI, and
 * every lesson's passages ranked as the lesson job ranks them. Reported per document:
 *  - section coverage: the share of the expected sections some lesson teaches (target 100 %);
 *  - citation precision: the share of lessons whose first cited section is one they teach
 *    (target ≥ 95 %);
 *  - front matter kept: sections read that are not expected ones (cover, contents…: target 0).
 * "Before" is the rule as it was before ADR 0058, kept here for the comparison: one topic per
 * heading up to the topics asked for, and the three best passages handed over in document order.
 */
const TOPICS = 10;

const SUBJECTS: [string, string[]][] = [
  ['Introduction', ['purpose', 'scope', 'audience']],
  ['Version', ['revision', 'draft', 'changelog']],
  ['Language used', ['keywords', 'must', 'should']],
  ['Unified system', ['merged', 'packages', 'install']],
  ['Directory layout', ['directories', 'prefix', 'share']],
  ['Recommended checking order', ['checking', 'order', 'fallback']],
  ['Non-regular files', ['sockets', 'pipes', 'devices']],
  ['Subclassing', ['subclass', 'parent', 'inherit']],
  ['Aliases', ['alias', 'canonical', 'synonym']],
  ['Glob patterns', ['glob', 'wildcard', 'extension']],
  ['Magic rules', ['magic', 'offset', 'bytes']],
  ['XML namespaces', ['namespace', 'root', 'element']],
  ['Icons', ['icon', 'theme', 'pixmap']],
  ['Generic icons', ['generic', 'family', 'placeholder']],
  ['Security', ['untrusted', 'sandbox', 'attack']],
  ['Contents of the database', ['entries', 'comment', 'acronym']],
  ['Storage format', ['storage', 'binary', 'compact']],
  ['Dealing with conflicts', ['conflict', 'priority', 'override']],
  ['Metadata', ['metadata', 'attributes', 'extended']],
  ['Updating the database', ['update', 'rebuild', 'trigger']],
  ['Cache file format', ['cache', 'header', 'mmap']],
  ['Byte order', ['endian', 'network', 'alignment']],
  ['References', ['rfc', 'standard', 'citation']],
];

interface Corpus {
  name: string;
  file: string;
  bytes: Uint8Array;
  expected: string[];
}

/** Each section's prose names its own subject, and (as a real document does) its neighbours'. */
function sectionsOf(subjects: [string, string[]][], numbered: boolean) {
  return subjects.map(([title, words], i) => {
    const next = subjects[(i + 1) % subjects.length]!;
    const heading = numbered ? `${i + 1}. ${title}` : title;
    const own = [...title.toLowerCase().split(' '), ...words];
    const text = chapterProse(
      { title, words: [...own, ...own, next[1][0]!, next[0].toLowerCase(), 'database'] },
      900,
      i + 1,
    );
    return { heading, text };
  });
}

async function corpus(): Promise<Corpus[]> {
  const pdfSections = sectionsOf(SUBJECTS, true);
  const docxSections = sectionsOf(SUBJECTS.slice(0, 12), false);
  const docx = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Contents', heading: HeadingLevel.HEADING_1 }),
          ...docxSections.map((s, i) => new Paragraph(`${s.heading}\t${i + 2}`)),
          ...docxSections.flatMap((s) => [
            new Paragraph({ text: s.heading, heading: HeadingLevel.HEADING_1 }),
            new Paragraph(s.text),
          ]),
        ],
      },
    ],
  });
  const mdSections = sectionsOf(SUBJECTS.slice(8, 16), false);
  const markdown = [
    '# MIME Guide',
    '',
    '## Contents',
    '',
    ...mdSections.map((s) => `- [${s.heading}](#${s.heading.toLowerCase().replace(/ /g, '-')})`),
    '',
    ...mdSections.flatMap((s) => [`## ${s.heading}`, '', s.text, '']),
  ].join('\n');
  const txtSections = sectionsOf(SUBJECTS.slice(12), false);
  const text = [
    'SHARED MIME-INFO MANUAL',
    'X Desktop Group',
    '',
    'Contents',
    '',
    txtSections.map((s, i) => `${s.heading} ${'.'.repeat(20)} ${i + 1}`).join('\n'),
    '',
    ...txtSections.flatMap((s) => [s.heading, '', s.text, '']),
  ].join('\n');
  return [
    {
      name: 'Specification PDF (cover, contents, headers, footers; 23 sections)',
      file: 'spec.pdf',
      bytes: new Uint8Array(
        await printedPdf({ title: 'Shared MIME-info Database', sections: pdfSections }),
      ),
      expected: pdfSections.map((s) => s.heading),
    },
    {
      name: 'DOCX with heading styles and contents (12 sections)',
      file: 'handbook.docx',
      bytes: new Uint8Array(await Packer.toBuffer(docx)),
      expected: docxSections.map((s) => s.heading),
    },
    {
      name: 'Markdown guide with contents list (8 sections)',
      file: 'guide.md',
      bytes: new TextEncoder().encode(markdown),
      expected: mdSections.map((s) => s.heading),
    },
    {
      name: 'Plain-text manual with title block and contents (11 sections)',
      file: 'manual.txt',
      bytes: new TextEncoder().encode(text),
      expected: txtSections.map((s) => s.heading),
    },
  ];
}

type Lesson = { title: string; topic: string };

/** The outline the product writes now: every section planned, the demo's AI titling it. */
function outlineNow(sections: MaterialSection[]): Lesson[] {
  const request: OutlineRequest = {
    mainTopic: 'MIME',
    subtopics: [],
    topicCount: TOPICS,
    topicLimit: TOPICS,
    material: {
      name: 'document',
      ...materialDigest(sections),
      topics: planTopics(sections, TOPICS).map((topic) => ({
        headings: topic.headings,
        lessons: topicLessons(topic),
        covers: coverageLabel(topic),
      })),
    },
  };
  const prompt = outlinePrompt(request);
  const answer = mockToolInput(
    { system: '', messages: [{ role: 'user', content: prompt }], tool: 'course_outline' },
    { aiMalformed: 0 } as Parameters<typeof mockToolInput>[1],
  );
  return parseOutline(answer, request).flatMap((topic) =>
    topic.lessons.map((lesson) => ({ title: lesson.title, topic: topic.title })),
  );
}

/** Before ADR 0058: one topic per heading, the first TOPICS of them, two lessons each. */
function outlineBefore(sections: MaterialSection[]): Lesson[] {
  return sections
    .filter((s) => !isLaterPart(s.heading))
    .slice(0, TOPICS)
    .flatMap((s) => [
      { title: `Understanding ${s.heading}`, topic: s.heading },
      { title: `${s.heading}: Key Points`, topic: s.heading },
    ]);
}

/** The sections a lesson teaches: those whose heading its title names (all the heading's words). */
const taughtBy = (sections: MaterialSection[], lesson: Lesson) =>
  sections
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => lesson.title.split('; ').some((part) => headingShare(s.heading, part) === 1))
    .map(({ i }) => i);

/** The first cited section now (best first) and before (the best three in document order). */
const firstCitedNow = (sections: MaterialSection[], lesson: Lesson) =>
  relevantSections(sections, { lesson: lesson.title, topic: lesson.topic })[0]?.index;
const firstCitedBefore = (sections: MaterialSection[], lesson: Lesson) =>
  relevantSections(sections, { lesson: lesson.title, topic: lesson.topic })
    .map((p) => p.index)
    .sort((a, b) => a - b)[0];

const pct = (n: number, d: number) => (d === 0 ? '—' : `${Math.round((n / d) * 1000) / 10} %`);

async function main() {
  const rows: string[] = [];
  let missed = false;
  for (const document of await corpus()) {
    const result = await extractDocument(document.file, document.bytes);
    if (!result.ok) throw new Error(`${document.file}: ${result.message}`);
    const { sections } = result.value;
    const found = sections.filter((s) => !isLaterPart(s.heading)).map((s) => s.heading);
    const junk = found.filter((h) => !document.expected.includes(h)).length;
    for (const [label, lessons, cite] of [
      ['before', outlineBefore(sections), firstCitedBefore],
      ['now', outlineNow(sections), firstCitedNow],
    ] as const) {
      const taught = new Set(lessons.flatMap((lesson) => taughtBy(sections, lesson)));
      const covered = document.expected.filter((h) =>
        [...taught].some((i) => sections[i]!.heading === h),
      ).length;
      const precise = lessons.filter((lesson) => {
        const first = cite(sections, lesson);
        return first !== undefined && taughtBy(sections, lesson).includes(first);
      }).length;
      const coverage = covered / document.expected.length;
      const precision = precise / lessons.length;
      if (label === 'now' && (coverage < 1 || precision < 0.95 || junk > 0)) missed = true;
      rows.push(
        `| ${document.name} | ${label} | ${pct(covered, document.expected.length)} (${covered}/${document.expected.length}) | ${pct(precise, lessons.length)} (${precise}/${lessons.length}) | ${junk} |`,
      );
    }
  }
  console.log('| Document | Rule | Section coverage | Citation precision | Front matter kept |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  console.log(
    `\nTargets: coverage 100 %, precision ≥ 95 %, no front matter kept: ${missed ? 'MISSED' : 'met'}`,
  );
  if (missed) process.exitCode = 1;
}

await main();
