import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** The statuses a VID replaced by auto-restore may take. */
const RESTORE_STATUSES = ['REVOKED', 'USED', 'INVALIDATED', 'EXPIRED'];

/**
 * The VID policy, as MOSIP's vid_policy.json: one entry per VID type. Each
 * says how many ACTIVE, unexpired VIDs of the type a UIN may hold at once,
 * how long one lives, how many transactions it allows, and whether reaching
 * the limit (or revoking one) restores a fresh VID of the type.
 */
const entry = z.object({
  vidType: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}$/, 'letters, digits, - or _, at most 32'),
  vidPolicy: z
    .object({
      /** null: never expires */
      validForInMinutes: z.number().int().positive().nullable(),
      /** null: unlimited transactions */
      transactionsAllowed: z.number().int().positive().nullable(),
      instancesAllowed: z.number().int().positive(),
      /** at the instance limit, the oldest ACTIVE VID takes `restoreOnAction` and a new one is made; a VID changed to `restoreOnAction` gets a successor */
      autoRestoreAllowed: z.boolean(),
      /** a VID status (REVOKED) or REGENERATE */
      restoreOnAction: z.string().regex(/^[A-Z_]{1,32}$/, 'an upper-case status'),
    })
    .strict()
    .refine((policy) => !policy.autoRestoreAllowed || RESTORE_STATUSES.includes(policy.restoreOnAction), {
      message: `with autoRestoreAllowed, restoreOnAction is the status the replaced VID takes: one of ${RESTORE_STATUSES.join(', ')}`,
      path: ['restoreOnAction'],
    }),
});

/** How many ACTIVE, unexpired VIDs a UIN may hold at once, all types together: the bound of GET /vid/uin/{UIN} (vidsByUin). */
export const MAX_USABLE_VIDS = 100;

export const vidPolicySchema = z
  .object({ vidPolicies: z.array(entry).min(1) })
  .refine((policy) => new Set(policy.vidPolicies.map((item) => item.vidType.toUpperCase())).size === policy.vidPolicies.length, {
    message: 'a VID type appears twice (types are compared ignoring case)',
  })
  .refine((policy) => policy.vidPolicies.reduce((sum, item) => sum + item.vidPolicy.instancesAllowed, 0) <= MAX_USABLE_VIDS, {
    message: `the types' instancesAllowed add up to more than ${MAX_USABLE_VIDS} (the most VIDs a UIN's list answers)`,
  });

export type VidPolicyFile = z.input<typeof vidPolicySchema>;
export type VidTypePolicy = z.output<typeof entry>['vidPolicy'];

/**
 * MOSIP's shipped policy (mosip-config mosip-vid-policy.json; transactionsAllowed 1 as
 * MOSIP's policy schema requires): one perpetual VID per UIN, restored when revoked or
 * when another is asked for; up to five temporary VIDs of 30 minutes and one transaction.
 */
export const DEFAULT_VID_POLICY: VidPolicyFile = {
  vidPolicies: [
    {
      vidType: 'Perpetual',
      vidPolicy: { validForInMinutes: null, transactionsAllowed: null, instancesAllowed: 1, autoRestoreAllowed: true, restoreOnAction: 'REVOKED' },
    },
    {
      vidType: 'Temporary',
      vidPolicy: { validForInMinutes: 30, transactionsAllowed: 1, instancesAllowed: 5, autoRestoreAllowed: false, restoreOnAction: 'REGENERATE' },
    },
  ],
};

/** The policy of each VID type, looked up ignoring case (MOSIP upper-cases the type a caller sends). */
export class VidPolicies {
  private readonly byType: ReadonlyMap<string, { type: string; policy: VidTypePolicy }>;

  constructor(file: unknown = DEFAULT_VID_POLICY) {
    const parsed = vidPolicySchema.safeParse(file);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`VID policy: ${issue.path.join('.') || 'the file'} ${issue.message}`);
    }
    this.byType = new Map(parsed.data.vidPolicies.map(({ vidType, vidPolicy }) => [vidType.toUpperCase(), { type: vidType, policy: vidPolicy }]));
  }

  /** The type as the policy spells it, and its rules; undefined for a type the policy does not name. */
  find(vidType: string): { type: string; policy: VidTypePolicy } | undefined {
    return this.byType.get(vidType.toUpperCase());
  }

  types(): string[] {
    return [...this.byType.values()].map((item) => item.type);
  }
}

/** A policy file (JSON, MOSIP's layout), checked; for a setting naming one. */
export function loadVidPolicy(file: string): VidPolicies {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`VID policy: cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`VID policy: ${file} is not JSON`);
  }
  return new VidPolicies(json);
}
