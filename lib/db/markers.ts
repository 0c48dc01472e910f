import type { PrismaClient } from '../../generated/prisma/client.js';

/** Facts every process of one platform shares (table platform_marker). */
export class PlatformMarkers {
  constructor(private readonly prisma: PrismaClient) {}

  async read(name: string): Promise<string | null> {
    return (await this.prisma.platformMarker.findUnique({ where: { name } }))?.value ?? null;
  }

  /** Writes the value unless the marker exists; answers the value the marker holds after (the first writer's, in a race). */
  async claim(name: string, value: string): Promise<{ value: string; created: boolean }> {
    const { count } = await this.prisma.platformMarker.createMany({ data: [{ name, value }], skipDuplicates: true });
    return { value: count ? value : ((await this.read(name)) ?? value), created: count > 0 };
  }

  async replace(name: string, value: string): Promise<void> {
    await this.prisma.platformMarker.upsert({ where: { name }, create: { name, value }, update: { value } });
  }
}
