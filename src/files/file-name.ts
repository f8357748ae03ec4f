const MAX_LENGTH = 200;

/**
 * The client's file name as metadata: last path segment only, no control or
 * path characters, NFC, bounded. It never becomes part of a storage key.
 */
export function sanitizeFileName(raw: string | undefined | null): string {
  const lastSegment = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return (cleaned || 'file').slice(0, MAX_LENGTH);
}
