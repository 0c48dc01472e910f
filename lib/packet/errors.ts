/**
 * A registration packet (or a part of one: its zip, its CBEFF) that cannot be
 * read safely. Messages name files and fields, never the values of an
 * identity, so that they can be logged and shown to an operator.
 */
export class PacketFormatError extends Error {
  override readonly name = 'PacketFormatError';
}
