import type { MaterialSection } from '../../../db/schema';
import { DEFAULT_LESSONS_PER_TOPIC } from '~/domain/plans';
import { isLaterPart } from '~/domain/material-coverage';
import { materialOfOutline } from '~/models/outlines.server';

/**
 * The whole document is taught (ADR 0058): its sections are planned into at most the outline's
 * topics before the AI is asked, so no section is left out however many there are.
 *
 * - A long section's later parts ("Heading (part 2)") go with their first part: one unit.
 * - With no more units than topics, each unit is a topic. With more, neighbouring units are
 *   grouped: topic i of k takes units ⌊i·n/k⌋ to ⌊(i+1)·n/k⌋ − 1, so groups differ by one at most
 *   and keep the document's order.
 * - A topic's lessons are its sections' headings, the lessons' subjects; a topic of more sections
 *   than the plan's lessons per topic has neighbouring headings share a lesson ("A; B"), and a topic of
 *   one section has two lessons on it ("Understanding A", "A: Key Points"), as a topic of a
 *   course without material has two at least.
 */
export interface MaterialTopic {
  /** Indexes of the topic's first and last sections in the document. */
  first: number;
  last: number;
  /** The headings of its sections (first parts only), in order. */
  headings: string[];
  pageStart: number | null;
  pageEnd: number | null;
}

export function planTopics(sections: MaterialSection[], maxTopics: number): MaterialTopic[] {
  const units: { first: number; last: number }[] = [];
  sections.forEach((section, index) => {
    const last = units[units.length - 1];
    if (last && isLaterPart(section.heading)) last.last = index;
    else units.push({ first: index, last: index });
  });
  const k = Math.max(1, Math.min(maxTopics, units.length));
  const topics: MaterialTopic[] = [];
  for (let i = 0; i < k; i += 1) {
    const group = units.slice(
      Math.floor((i * units.length) / k),
      Math.floor(((i + 1) * units.length) / k),
    );
    if (group.length === 0) continue;
    const first = group[0]!.first;
    const last = group[group.length - 1]!.last;
    const covered = sections.slice(first, last + 1);
    const starts = covered.map((s) => s.pageStart).filter((p): p is number => p !== undefined);
    const ends = covered.map((s) => s.pageEnd).filter((p): p is number => p !== undefined);
    topics.push({
      first,
      last,
      headings: group.map((unit) => sections[unit.first]!.heading),
      pageStart: starts.length ? Math.min(...starts) : null,
      pageEnd: ends.length ? Math.max(...ends) : null,
    });
  }
  return topics;
}

/** The lessons of a planned topic: one per heading, neighbours sharing one past the limit. */
export function topicLessons(topic: MaterialTopic, max = DEFAULT_LESSONS_PER_TOPIC): string[] {
  const { headings } = topic;
  if (headings.length === 1)
    return [`Understanding ${headings[0]}`, `${headings[0]}: Key Points`].slice(0, max);
  const k = Math.min(max, headings.length);
  return Array.from({ length: k }, (_, i) =>
    headings
      .slice(Math.floor((i * headings.length) / k), Math.floor(((i + 1) * headings.length) / k))
      .join('; ')
      .slice(0, 200),
  );
}

/**
 * The headings and pages (not the text) of an outline's material, for its page to say what each
 * topic covers; null for an outline without material.
 */
export async function materialHeadingsOfOutline(
  outlineId: string,
): Promise<Pick<MaterialSection, 'heading' | 'pageStart' | 'pageEnd'>[] | null> {
  const material = await materialOfOutline(outlineId);
  return (
    material?.sections.map(({ heading, pageStart, pageEnd }) => ({
      heading,
      pageStart,
      pageEnd,
    })) ?? null
  );
}
