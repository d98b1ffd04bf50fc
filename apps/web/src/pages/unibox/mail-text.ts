// What a person types becomes the HTML body the send operations take (escaped, line breaks
// kept), and files become the base64 attachments they accept.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text as HTML: every character escaped, paragraphs and line breaks kept. */
export function textToHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
  return escaped
    .split(/\r?\n\r?\n+/)
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');
}

/** Addresses typed as one line: separated by commas, semicolons or spaces; empty parts dropped. */
export function splitAddresses(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}

/** The most the send operations accept, decoded (unibox.schemas: 10 MB in total, 20 files). */
export const ATTACHMENT_LIMITS = { totalBytes: 10 * 1024 * 1024, files: 20 };

/** Why these files cannot be attached, in words, or undefined when they can. */
export function attachmentProblem(files: { size: number }[]): string | undefined {
  if (files.length > ATTACHMENT_LIMITS.files) return `At most ${ATTACHMENT_LIMITS.files} files can be attached.`;
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (total > ATTACHMENT_LIMITS.totalBytes) return `The files add up to ${formatBytes(total)}; at most 10 MB can be attached.`;
  return undefined;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(0)} kB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/** A file as the operations take it: name, MIME type and base64 content. */
export async function toAttachment(file: File): Promise<{ fileName: string; contentType?: string; content: string }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { fileName: file.name, ...(file.type ? { contentType: file.type } : {}), content: btoa(binary) };
}
