/**
 * A line-by-line comparison of two texts (ADR 0061): the lines both keep, and those only the
 * earlier one has (removed) or only the later one has (added), in reading order. The longest
 * common subsequence of lines, after the common head and tail are set aside; a middle too large
 * to compare in bounded memory is shown as removed then added, which is still true.
 */
export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string };

/** Cells of the comparison table at most (4 bytes each): about 16 MB. */
const MAX_CELLS = 4_000_000;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.replace(/\r\n?/g, '\n').split('\n');
  const b = after.replace(/\r\n?/g, '\n').split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const same = (lines: string[]) => lines.map((text): DiffLine => ({ kind: 'same', text }));
  const middle = middleDiff(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...same(a.slice(0, head)), ...middle, ...same(a.slice(a.length - tail))];
}

function middleDiff(a: string[], b: string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ kind: 'removed', text });
  const added = (text: string): DiffLine => ({ kind: 'added', text });
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_CELLS)
    return [...a.map(removed), ...b.map(added)];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], one row after another.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) lines.push(removed(a[i++]!));
    else lines.push(added(b[j++]!));
  }
  while (i < a.length) lines.push(removed(a[i++]!));
  while (j < b.length) lines.push(added(b[j++]!));
  return lines;
}
