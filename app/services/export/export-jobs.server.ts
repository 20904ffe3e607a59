import { strToU8, ZipDeflate } from 'fflate';
import type { Receipt, SubscriptionRow } from '~/models/subscriptions.server';
import { receiptPdf } from '~/services/billing/receipt-document.server';
import type { ExportCourse } from './course-export.server';
import { courseMarkdown } from './markdown.server';
import { coursePdf } from './pdf.server';

/**
 * What the export thread (export-pool.server.ts) does: draw a course's PDF, or render and
 * deflate files of a member's data export. The request thread reads the database and describes
 * the files; everything that is CPU (Markdown, JSON text, receipt PDFs, deflating) happens here.
 */
export type ArchiveFile = { name: string } & (
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'course-markdown'; course: ExportCourse; origin: string }
  | { kind: 'receipt-pdf'; receipt: Receipt; subscription: SubscriptionRow; company: string }
);

/** A file ready for the zip: its deflated bytes, with the CRC and size its headers need. */
export interface PackedFile {
  name: string;
  data: Uint8Array<ArrayBuffer>;
  crc: number;
  size: number;
}

export type ExportJob =
  | {
      kind: 'pdf';
      course: ExportCourse;
      images: [string, Uint8Array | null][];
      origin: string;
    }
  | { kind: 'files'; files: ArchiveFile[] };

async function render(file: ArchiveFile): Promise<Uint8Array> {
  switch (file.kind) {
    case 'json':
      return strToU8(`${JSON.stringify(file.value, null, 2)}\n`);
    case 'text':
      return strToU8(file.text);
    case 'course-markdown':
      return strToU8(courseMarkdown(file.course, file.origin));
    case 'receipt-pdf':
      return receiptPdf(file.receipt, file.subscription, file.company);
  }
}

/** One file deflated as fflate's zip writer would, its output kept for the request thread. */
function pack(name: string, bytes: Uint8Array): PackedFile {
  const chunks: Uint8Array[] = [];
  const file = new ZipDeflate(name, { level: 6 });
  file.ondata = (error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  };
  file.push(bytes, true);
  const data = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    data.set(chunk, offset);
    offset += chunk.length;
  }
  return { name, data, crc: file.crc, size: file.size };
}

export async function runExportJob(job: ExportJob): Promise<Uint8Array | PackedFile[]> {
  if (job.kind === 'pdf') {
    const images = new Map(
      job.images.map(([url, bytes]) => [url, bytes ? Buffer.from(bytes) : null] as const),
    );
    return coursePdf(job.course, images, job.origin);
  }
  const packed: PackedFile[] = [];
  for (const file of job.files) packed.push(pack(file.name, await render(file)));
  return packed;
}
