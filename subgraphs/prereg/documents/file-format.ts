/** A format whose content the platform recognises: its MIME type, the extensions it is named with, and how its bytes start. */
interface KnownFormat {
  mime: string;
  extensions: readonly string[];
  magic: Buffer;
}

const KNOWN: readonly KnownFormat[] = [
  { mime: 'application/pdf', extensions: ['pdf'], magic: Buffer.from('%PDF-', 'latin1') },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { mime: 'image/png', extensions: ['png'], magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
];

/** Names a configuration may give a known type (MOSIP's shipped list says image/jpg). */
const ALIASES: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'application/x-pdf': 'application/pdf' };

/** A file name's extension, lower case ('' when it has none). */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/**
 * The format of an uploaded document, its extension as MOSIP records it
 * (docFileFormat), or undefined when it is refused: the extension must name
 * a type the configuration allows, and the bytes must be that type's (a
 * renamed file is refused). A type the configuration lists but whose content
 * the platform cannot recognise is refused too: it cannot be checked.
 */
export function documentFormat(fileName: string, content: Buffer, allowedTypes: readonly string[]): string | undefined {
  const extension = extensionOf(fileName);
  const format = KNOWN.find((known) => known.extensions.includes(extension));
  if (!format) return undefined;
  const allowed = allowedTypes.map((type) => ALIASES[type] ?? type);
  if (!allowed.includes(format.mime)) return undefined;
  return content.subarray(0, format.magic.length).equals(format.magic) ? extension : undefined;
}
