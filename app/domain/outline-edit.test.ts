import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from './plans';
import {
  applyOutlineOp,
  controlAfterOp,
  outlineEditRefusal,
  outlineFromFields,
  parseOutlineOp,
  renameInOutline,
  topicLimitOf,
} from './outline-edit';
import type { Outline } from './outline';

const outline: Outline = [
  { title: 'One', lessons: [{ title: 'a' }, { title: 'b' }] },
  { title: 'Two', lessons: [{ title: 'c' }] },
];

const limitOf = {
  free: topicLimitOf(DEFAULT_PLANS.free),
  monthly: topicLimitOf(DEFAULT_PLANS.monthly),
  yearly: topicLimitOf(DEFAULT_PLANS.yearly),
};

describe('editing an outline', () => {
  it('moves, adds, removes and renames, and ignores a move past either end', () => {
    expect(
      applyOutlineOp(outline, { kind: 'move-topic', topic: 1, by: -1 }).map((t) => t.title),
    ).toEqual(['Two', 'One']);
    expect(applyOutlineOp(outline, { kind: 'move-topic', topic: 0, by: -1 })).toEqual(outline);
    expect(
      applyOutlineOp(outline, { kind: 'move-lesson', topic: 0, lesson: 1, by: -1 })[0]!.lessons,
    ).toEqual([{ title: 'b' }, { title: 'a' }]);
    expect(
      applyOutlineOp(outline, { kind: 'remove-lesson', topic: 0, lesson: 0 })[0]!.lessons,
    ).toEqual([{ title: 'b' }]);
    expect(applyOutlineOp(outline, { kind: 'add-lesson', topic: 1 })[1]!.lessons).toHaveLength(2);
    expect(applyOutlineOp(outline, { kind: 'add-topic' })).toHaveLength(3);
    expect(applyOutlineOp(outline, { kind: 'remove-topic', topic: 0 })).toEqual([outline[1]]);
    expect(renameInOutline(outline, 1, 0, 'see')[1]!.lessons[0]!.title).toBe('see');
    expect(renameInOutline(outline, 0, undefined, 'Uno')[0]!.title).toBe('Uno');
  });

  it('keeps the focus on the item moved, on the other arrow once it reaches an end, and on a new item’s Rename', () => {
    const after = (op: Parameters<typeof applyOutlineOp>[1]) =>
      controlAfterOp(applyOutlineOp(outline, op), op);
    const three = [...outline, { title: 'Three', lessons: [{ title: 'd' }] }];
    const moved = (op: Parameters<typeof applyOutlineOp>[1]) =>
      controlAfterOp(applyOutlineOp(three, op), op);
    expect(moved({ kind: 'move-topic', topic: 2, by: -1 })).toBe('topic-1-up');
    expect(moved({ kind: 'move-topic', topic: 1, by: -1 })).toBe('topic-0-down');
    expect(moved({ kind: 'move-topic', topic: 0, by: 1 })).toBe('topic-1-down');
    expect(moved({ kind: 'move-topic', topic: 1, by: 1 })).toBe('topic-2-up');
    expect(after({ kind: 'move-lesson', topic: 0, lesson: 1, by: -1 })).toBe('lesson-0-0-down');
    expect(after({ kind: 'move-lesson', topic: 0, lesson: 0, by: 1 })).toBe('lesson-0-1-up');
    expect(after({ kind: 'add-topic' })).toBe('topic-2-rename');
    expect(after({ kind: 'add-lesson', topic: 1 })).toBe('lesson-1-1-rename');
    expect(after({ kind: 'remove-topic', topic: 0 })).toBeNull();
  });

  it('holds every outline to the plan: a free member’s sixth topic is for paid members only', () => {
    const topics = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ title: `T${i}`, lessons: [{ title: 'l' }] }));
    expect(outlineEditRefusal(topics(5), limitOf.free)).toBeNull();
    expect(outlineEditRefusal(topics(6), limitOf.free)).toBe('For paid members only');
    expect(outlineEditRefusal(topics(10), limitOf.monthly)).toBeNull();
    expect(outlineEditRefusal(topics(11), limitOf.yearly)).toBe('A course has at most 10 topics');
    expect(outlineEditRefusal([], limitOf.free)).toBe('A course needs at least one topic');
    expect(outlineEditRefusal([{ title: 'T', lessons: [] }], limitOf.free)).toBe(
      'A topic needs at least one lesson',
    );
    expect(
      outlineEditRefusal([{ title: 'T', lessons: Array(5).fill({ title: 'l' }) }], limitOf.monthly),
    ).toBe('A topic has at most 4 lessons');
    // The operator's lessons per topic (ADR 0055).
    const twoLessons = [{ title: 'T', lessons: [{ title: 'a' }, { title: 'b' }] }];
    expect(outlineEditRefusal(twoLessons, { ...limitOf.free, lessonsPerTopic: 1 })).toBe(
      'A topic has at most 1 lesson',
    );
    expect(outlineEditRefusal(twoLessons, { ...limitOf.free, lessonsPerTopic: 2 })).toBeNull();
    expect(outlineEditRefusal([{ title: ' ', lessons: [{ title: 'l' }] }], limitOf.free)).toBe(
      'Please fill in all required fields',
    );
    expect(
      outlineEditRefusal([{ title: 'x'.repeat(201), lessons: [{ title: 'l' }] }], limitOf.free),
    ).toBe('Please keep each title under 200 characters');
    expect(outlineEditRefusal([{ title: 'T', lessons: [{ title: 'a\nb' }] }], limitOf.free)).toBe(
      'A title contains characters that are not allowed',
    );
  });

  it('reads the buttons’ values and the form’s fields, in order', () => {
    expect(parseOutlineOp('up-lesson:1:2')).toEqual({
      kind: 'move-lesson',
      topic: 1,
      lesson: 2,
      by: -1,
    });
    expect(parseOutlineOp('down-topic:3')).toEqual({ kind: 'move-topic', topic: 3, by: 1 });
    expect(parseOutlineOp('add-topic')).toEqual({ kind: 'add-topic' });
    expect(parseOutlineOp('save')).toBe('save');
    for (const bad of ['up-lesson:1', 'remove-topic:-1', 'explode', 'add-lesson:x', 7])
      expect(parseOutlineOp(bad)).toBeNull();
    expect(
      outlineFromFields({
        'lesson.1.0': 'c',
        'topic.1': 'Two',
        'lesson.0.1': 'b',
        'topic.0': 'One',
        'lesson.0.0': 'a',
        intent: 'generate',
      }),
    ).toEqual(outline);
    expect(outlineFromFields({ intent: 'generate' })).toBeNull();
  });
});
