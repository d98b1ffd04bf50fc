// A plain-text e-mail as an IMAP server hands it over (CRLF lines), for the reply-reading tests.

/** The raw message: its headers (with `In-Reply-To`, `References` and any more given) and a text body. */
export function rawMail(options: { from: string; to: string; subject: string; messageId: string; inReplyTo?: string; references?: string; headers?: Record<string, string>; text: string }): Buffer {
  const lines = [
    `From: ${options.from}`,
    `To: ${options.to}`,
    `Subject: ${options.subject}`,
    `Message-ID: <${options.messageId}>`,
    'Date: Mon, 23 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    ...(options.inReplyTo ? [`In-Reply-To: <${options.inReplyTo}>`] : []),
    ...(options.references ? [`References: ${options.references}`] : []),
    ...Object.entries(options.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    '',
    options.text,
    '',
  ];
  return Buffer.from(lines.join('\r\n'));
}
