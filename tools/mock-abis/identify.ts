import type { BiometricEntry, Modality, ReferenceStore } from './references.js';

// identify (ABIS.md (b)): 1:N, or 1:few with a gallery, over the mock's stored references.

/** Candidate analytics: the share of the probe's biometrics found in the candidate, in percent. */
function scoreOf(matched: number, total: number): Record<string, string> {
  const score = total ? Math.round((matched / total) * 100) : 0;
  return { confidence: String(score), internalScore: String(score) };
}

interface IdentifyOptions {
  probeId: string | undefined;
  probe: BiometricEntry[];
  gallery: Set<string> | undefined;
  maxResults: number | undefined;
  forced: string[] | undefined;
}

/** 1:N: every other active reference (in the gallery, if any) sharing a digest with the probe. */
export function identifyCandidates(store: ReferenceStore, options: IdentifyOptions): Record<string, unknown> {
  const probeId = options.probeId?.toLowerCase();
  const probeDigests = new Map<string, Modality>(options.probe.map((entry) => [entry.digest.toLowerCase(), entry.modality]));
  const candidates: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  if (options.forced) {
    for (const referenceId of options.forced) {
      const key = referenceId.toLowerCase();
      if (key === probeId || seen.has(key)) continue;
      seen.add(key);
      candidates.push({
        referenceId,
        analytics: scoreOf(1, 1),
        modalities: [...new Set(probeDigests.values())].map((biometricType) => ({ biometricType, analytics: scoreOf(1, 1) })),
      });
    }
  } else {
    for (const reference of store.all()) {
      const key = reference.referenceId.toLowerCase();
      if (key === probeId || seen.has(key)) continue;
      if (options.gallery && !options.gallery.has(key)) continue;
      const perModality = new Map<Modality, { matched: number; total: number }>();
      let matched = 0;
      for (const [digest, modality] of probeDigests) {
        const tally = perModality.get(modality) ?? { matched: 0, total: 0 };
        tally.total++;
        if (reference.entries.some((entry) => entry.digest.toLowerCase() === digest)) {
          tally.matched++;
          matched++;
        }
        perModality.set(modality, tally);
      }
      if (!matched) continue;
      seen.add(key);
      candidates.push({
        referenceId: reference.referenceId,
        analytics: scoreOf(matched, probeDigests.size),
        modalities: [...perModality]
          .filter(([, tally]) => tally.matched > 0)
          .map(([biometricType, tally]) => ({ biometricType, analytics: scoreOf(tally.matched, tally.total) })),
      });
    }
    candidates.sort((a, b) => Number((b.analytics as Record<string, string>).internalScore) - Number((a.analytics as Record<string, string>).internalScore));
  }
  const limited = options.maxResults !== undefined && options.maxResults >= 0 ? candidates.slice(0, options.maxResults) : candidates;
  return { count: String(limited.length), candidates: limited };
}

/** `gallery.referenceIds[].referenceId`, lowercased; undefined when there is no gallery; null when malformed. */
export function galleryOf(value: unknown): Set<string> | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  const ids = (value as { referenceIds?: unknown }).referenceIds;
  if (ids === undefined || ids === null) return undefined;
  if (!Array.isArray(ids)) return null;
  const set = new Set<string>();
  for (const item of ids as unknown[]) {
    const id = item && typeof item === 'object' ? (item as { referenceId?: unknown }).referenceId : undefined;
    if (typeof id !== 'string') return null;
    set.add(id.toLowerCase());
  }
  return set;
}

/** `flags.maxResults` as a number, when it is one. */
export function maxResultsOf(flags: unknown): number | undefined {
  if (!flags || typeof flags !== 'object') return undefined;
  const raw = (flags as { maxResults?: unknown }).maxResults;
  const number = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isInteger(number) && number > 0 ? number : undefined;
}
